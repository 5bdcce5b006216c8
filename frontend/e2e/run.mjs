// End-to-end tests of the web app in real Chromium (playwright-core, the
// system's /usr/bin/chromium) against the real binary, with a fresh
// PostgreSQL database and a leased Redis database.
//
//   node e2e/run.mjs            (make test-e2e builds the app and binary first)
//
// Environment: SEQLEAGUE_BIN (default ../bin/seqleague, built if missing),
// CHROMIUM (default /usr/bin/chromium), TEST_DATABASE_URL (the server to
// create the database on; default postgres://postgres@127.0.0.1:5432),
// TEST_REDIS_URL (default redis://127.0.0.1:6379). Screenshots and the
// server's log go to test-artifacts/ at the repository root. With CI=true a
// missing Chromium, PostgreSQL or Redis fails the run instead of skipping.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, createWriteStream } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const artifacts = join(root, 'test-artifacts');
const CI = process.env.CI === 'true' || process.env.CI === '1';
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const BIN = process.env.SEQLEAGUE_BIN || join(root, 'bin', 'seqleague');
const DEADLINE_MS = 170_000; // the whole run
// a 6-player Stacks table at 768x1024: the piles' top and the hand's bottom, px down the page
// (300 and 450 until the table said how to win: its line, "To win: 5 chips, 2+ red, 2+ blue", takes
// some 23 px, which left the piles at exactly 300)
const STACKS_TABLET_PILES = 325; // was 450
const STACKS_TABLET_HAND = 475; // was 578

const pgURL = new URL(process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres');
const redisURL = new URL(process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379');
const pg = { host: pgURL.hostname || '127.0.0.1', port: pgURL.port || '5432', user: decodeURIComponent(pgURL.username || 'postgres'), password: decodeURIComponent(pgURL.password || '') };
const rd = { host: redisURL.hostname || '127.0.0.1', port: redisURL.port || '6379' };

function log(...a) {
  console.log(...a);
}

function unavailable(what) {
  if (CI) {
    console.error(`e2e: ${what} — required when CI=true`);
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
  log(`e2e: SKIP — ${what} (set CI=true to make this a failure)`);
  process.exit(0);
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', ...opts, env: { ...process.env, ...(opts.env || {}) } });
  return { ok: r.status === 0, out: (r.stdout || '') + (r.stderr || ''), error: r.error };
}

const psql = (sql) =>
  run('psql', ['-h', pg.host, '-p', pg.port, '-U', pg.user, '-d', 'postgres', '-v', 'ON_ERROR_STOP=1', '-qAt', '-c', sql], {
    env: pg.password ? { PGPASSWORD: pg.password } : {},
  });
const psqlDB = (db, sql) =>
  run('psql', ['-h', pg.host, '-p', pg.port, '-U', pg.user, '-d', db, '-v', 'ON_ERROR_STOP=1', '-qAt', '-c', sql], {
    env: pg.password ? { PGPASSWORD: pg.password } : {},
  });
const redis = (db, ...args) => run('redis-cli', ['-h', rd.host, '-p', rd.port, '-n', String(db), ...args]);

// ---- prerequisites ----
if (!existsSync(CHROMIUM)) unavailable(`no Chromium at ${CHROMIUM} (apt-get install -y chromium)`);
if (!run('psql', ['--version']).ok) unavailable('no psql (apt-get install -y postgresql-client)');
if (!psql('SELECT 1').ok) unavailable(`PostgreSQL is not reachable at ${pg.host}:${pg.port} as ${pg.user}`);
if (!run('redis-cli', ['--version']).ok) unavailable('no redis-cli (apt-get install -y redis-tools)');
if (redis(0, 'PING').out.trim() !== 'PONG') unavailable(`Redis is not reachable at ${rd.host}:${rd.port}`);

let playwright;
try {
  playwright = await import('playwright-core');
} catch (e) {
  console.error('e2e: playwright-core is not installed (npm ci in frontend/)', e.message);
  process.exit(1);
}

if (!existsSync(BIN)) {
  log(`e2e: building ${BIN}`);
  const b = run('go', ['build', '-o', BIN, './cmd/seqleague'], { cwd: root });
  if (!b.ok) {
    console.error(b.out);
    process.exit(1);
  }
}

mkdirSync(artifacts, { recursive: true });
for (const f of readdirSync(artifacts)) if (/^failure-\d+\.png$/.test(f)) rmSync(join(artifacts, f));

// ---- the services ----
const suffix = `${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
const dbName = `seqleague_e2e_${suffix}`;
let redisDB = -1;
const leaseOwner = `e2e-${suffix}`;
let server = null;
let context = null;
const dataDir = mkdtempSync(join(tmpdir(), 'seqleague-e2e-'));
const profileDir = mkdtempSync(join(tmpdir(), 'seqleague-e2e-chromium-'));

async function cleanup() {
  try {
    await context?.close();
  } catch {}
  if (server && server.exitCode == null) {
    server.kill('SIGTERM');
    await new Promise((r) => {
      const t = setTimeout(() => (server.kill('SIGKILL'), r()), 8000);
      server.once('exit', () => (clearTimeout(t), r()));
    });
  }
  psql(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  if (redisDB > 0) {
    redis(redisDB, 'FLUSHDB');
    const key = `seqleague:testenv:lease:${redisDB}`;
    if (redis(0, 'GET', key).out.trim() === leaseOwner) redis(0, 'DEL', key);
  }
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(profileDir, { recursive: true, force: true });
}

const watchdog = setTimeout(async () => {
  console.error(`e2e: the run took longer than ${DEADLINE_MS / 1000} s; stopping`);
  await cleanup();
  console.log('0 passed, 1 failed');
  process.exit(1);
}, DEADLINE_MS);

function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });
}

// A Redis database leased the way league/testenv leases them, so that Go
// tests running at the same time never share it.
function leaseRedis() {
  for (let db = 15; db >= 1; db--) {
    const r = redis(0, 'SET', `seqleague:testenv:lease:${db}`, leaseOwner, 'NX', 'EX', '600');
    if (r.out.trim() === 'OK') {
      redis(db, 'FLUSHDB');
      return db;
    }
  }
  return -1;
}

const created = psql(`CREATE DATABASE ${dbName}`);
if (!created.ok) {
  console.error('e2e: create database:', created.out);
  process.exit(1);
}
redisDB = leaseRedis();
if (redisDB < 0) {
  await cleanup();
  console.error('e2e: every Redis database is leased');
  process.exit(1);
}
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const dbURL = new URL(pgURL);
dbURL.pathname = '/' + dbName;
if (!dbURL.searchParams.has('sslmode')) dbURL.searchParams.set('sslmode', 'disable');
const serverLog = createWriteStream(join(artifacts, 'e2e-server.log'));
server = spawn(BIN, [], {
  env: {
    ...process.env,
    DATABASE_URL: dbURL.toString(),
    REDIS_URL: `redis://${rd.host}:${rd.port}/${redisDB}`,
    SEQLEAGUE_ADDR: `127.0.0.1:${port}`,
    SEQLEAGUE_BOT_DELAY: '0s',
    // the tests' one account opens a table of every size, and leaves them in play
    SEQLEAGUE_MAX_LIVE_GAMES: '200',
    SEQLEAGUE_PUBLIC_URL: base,
    SEQLEAGUE_DATA_DIR: dataDir,
    JWT_SECRET: 'e2e-secret-' + 'x'.repeat(40),
    SEQLEAGUE_LOG_LEVEL: 'warn',
  },
  stdio: ['ignore', 'pipe', 'pipe'],
});
server.stdout.pipe(serverLog);
server.stderr.pipe(serverLog);

async function waitReady() {
  const until = Date.now() + 30_000;
  while (Date.now() < until) {
    if (server.exitCode != null) throw new Error(`the server exited (${server.exitCode}); see test-artifacts/e2e-server.log`);
    try {
      const r = await fetch(base + '/readyz');
      if (r.ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the server did not become ready in 30 s');
}

// ---- the tests ----
const results = [];
const pageErrors = [];
async function test(name, fn) {
  const t0 = Date.now();
  try {
    await fn();
    results.push({ name, ok: true });
    log(`ok ${results.length} - ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  } catch (e) {
    results.push({ name, ok: false });
    log(`not ok ${results.length} - ${name}: ${e && e.stack ? e.stack.split('\n').slice(0, 4).join('\n    ') : e}`);
    try {
      await page?.screenshot({ path: join(artifacts, `failure-${results.length}.png`), fullPage: true });
    } catch {}
  }
}
// signUpApart registers a new account (named after who) in a browser
// context of its own, for a test of several people at once, its page's
// script errors counted with the run's; it answers the page and the name.
async function signUpApart(browser, who) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const p = await ctx.newPage();
  p.setDefaultTimeout(15_000);
  p.on('pageerror', (e) => pageErrors.push(`${who}: ${e}`));
  p.on('console', (m) => {
    if (m.type() === 'error' && !/status of 40[19]/.test(m.text())) pageErrors.push(`${who} console: ${m.text()}`);
  });
  const name = `${who}_${suffix}`.slice(0, 24).replace(/[^A-Za-z0-9_-]/g, '_');
  await p.goto(base + '/signup');
  await p.getByLabel('Username').fill(name);
  await p.getByLabel('Password').fill(password);
  await p.getByRole('button', { name: 'Create account' }).click();
  await p.getByRole('heading', { name: `Hello, ${name}` }).waitFor();
  return { p, name };
}

function assert(cond, msg) {
  if (!cond) throw new Error(msg);
}
// Home has three forms that ask for a game, players and teams (the quick
// match, the lobby's filter and the new game): the new game's controls.
const newGame = () => page.locator('form.new-game');
const shot = (name, opts = {}) => page.screenshot({ path: join(artifacts, name), ...opts });

// audit checks the page as it stands with axe-core against the WCAG 2.0 and 2.1 A and AA rules, at 1280x900
// and at a 390x844 phone, then puts the viewport back. Violations are logged and kept, and the last test
// fails on any. axe's source (node_modules/axe-core) goes in by a script tag whose address on the app's own
// origin this test answers itself (the server never sees it): the app's Content-Security-Policy
// (script-src 'self') refuses an inline script, and must stay as it is for the pages under test.
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const axeServe = (route) => route.fulfill({ contentType: 'text/javascript; charset=utf-8', body: axeSource });
async function injectAxe() {
  const url = base + '/e2e-axe-core.js';
  await page.route(url, axeServe);
  try {
    await page.addScriptTag({ url });
  } finally {
    await page.unroute(url, axeServe);
  }
}
const axeFound = [];
const axeAudits = { runs: 0, ms: 0 };
// One rule is waived for one kind of element, by rule id and selector:
// label-content-name-mismatch (WCAG 2.5.3) on the card faces: the board's cells and the hands' cards show a
// card in the players' short notation ("K♠", "10♥", and at Stacks "R3" or "B5", the colour's letter there
// for the colour-blind), aria-hidden, and are named by the card in words ("f2, king of spades", "1: red 3"),
// the words a speech user says for "K♠"; adding the short form to the name would have a screen
// reader read every card twice over ("K black spade suit, king of spades") on a board of 100 cells.
const axeWaived = { 'label-content-name-mismatch': '.board [role=gridcell], .hand-card' };
// What axe leaves "needing review" (its incomplete results) the audit decides itself, and fails on the rest:
// - color-contrast where axe cannot tell the colours apart from the text: symbol-only text (the team chips
//   ● ▲ ■, the board's corner ★, a winner's ✓, the logo), an SVG's text (the rating chart's ticks: inside an
//   image, whose background axe does not take), a label under another element (the bracket's column heads).
//   The audit measures them: the colour (an SVG text's fill) over the first opaque background behind it,
//   through any opacity; text wants 4.5:1 (WCAG 1.4.3), symbols 3:1 as graphics (1.4.11). Disabled
//   controls are exempt, as in axe.
// - label-content-name-mismatch on a control whose visible label is symbols only (the replay's ◀ ▶, the
//   corners' ★): WCAG 2.5.3 asks a name to hold the visible text, and a symbol is no word a speech user
//   says; a label with a letter or digit fails.
const axeReviewed = { contrasts: 0, lowest: Infinity, symbolNames: 0 };
async function audit(name) {
  const t0 = Date.now();
  const was = page.viewportSize();
  try {
    for (const size of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
      if (page.viewportSize().width !== size.width) await page.setViewportSize(size);
      if (!(await page.evaluate(() => 'axe' in window))) await injectAxe();
      const found = await page.evaluate(
        async (waived) => {
          await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))); // laid out at the new width
          const r = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations', 'incomplete'] });
          const violations = r.violations
            .map((v) => ({ ...v, nodes: v.nodes.filter((n) => !(waived[v.id] && document.querySelector(n.target[0])?.matches(waived[v.id]))) }))
            .filter((v) => v.nodes.length > 0)
            .map((v) => ({ id: v.id, impact: v.impact, helpUrl: v.helpUrl, targets: v.nodes.map((n) => n.target.join(' ')) }));
          // the incomplete results, decided as axeReviewed's comment says
          const rgba = (c) => {
            const [r, g, b, a = 1] = c.match(/[\d.]+/g).map(Number);
            return [r, g, b, a];
          };
          const over = ([r, g, b, a], [R, G, B]) => [r * a + R * (1 - a), g * a + G * (1 - a), b * a + B * (1 - a)];
          const luminance = (rgb) => {
            const [r, g, b] = rgb.map((v) => (v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
            return 0.2126 * r + 0.7152 * g + 0.0722 * b;
          };
          const contrast = (el) => {
            const layers = [];
            let opacity = 1;
            for (let e = el; e; e = e.parentElement) {
              const cs = getComputedStyle(e);
              opacity *= Number(cs.opacity);
              const bg = rgba(cs.backgroundColor);
              if (bg[3] > 0) layers.push(bg);
              if (bg[3] === 1) break;
            }
            const bg = layers.reduceRight((under, layer) => over(layer, under), [255, 255, 255]);
            const cs = getComputedStyle(el);
            const [r, g, b, a] = rgba(el instanceof SVGElement ? cs.fill : cs.color);
            const fg = over([r, g, b, a * opacity], bg);
            const [hi, lo] = [luminance(fg), luminance(bg)].sort((a, b) => b - a);
            return (hi + 0.05) / (lo + 0.05);
          };
          const symbolsOnly = (text) => !/[\p{L}\p{N}]/u.test(text);
          const reviewed = { contrasts: [], symbolNames: 0 };
          for (const v of r.incomplete) {
            const failed = [];
            for (const n of v.nodes) {
              const el = document.querySelector(n.target[0]);
              if (!el) continue; // re-rendered while axe ran (a clock's tick): nothing left to decide
              const text = el.textContent.trim();
              if (v.id === 'color-contrast') {
                if (el.closest('button:disabled, [aria-disabled=true]')) continue;
                const ratio = contrast(el);
                const want = symbolsOnly(text) ? 3 : 4.5;
                reviewed.contrasts.push(ratio);
                if (ratio < want) failed.push(`${n.target.join(' ')} "${text}" ${ratio.toFixed(2)}:1, want ${want}:1`);
              } else if (v.id === 'label-content-name-mismatch' && symbolsOnly(el.innerText)) reviewed.symbolNames++;
              else failed.push(`${n.target.join(' ')} "${text.slice(0, 30)}"`);
            }
            if (failed.length) violations.push({ id: `${v.id} (needs review)`, impact: v.impact, helpUrl: v.helpUrl, targets: failed });
          }
          return { violations, reviewed };
        },
        axeWaived,
      ).then(({ violations, reviewed }) => {
        axeReviewed.contrasts += reviewed.contrasts.length;
        axeReviewed.lowest = Math.min(axeReviewed.lowest, ...reviewed.contrasts);
        axeReviewed.symbolNames += reviewed.symbolNames;
        return violations;
      });
      axeAudits.runs++;
      for (const v of found) {
        const line = `${name} at ${size.width} px: ${v.id} (${v.impact}), ${v.targets.length} × ${v.targets.slice(0, 4).join(' | ')} — ${v.helpUrl}`;
        axeFound.push(line);
        log(`    axe: ${line}`);
      }
    }
  } finally {
    const now = page.viewportSize();
    if (now.width !== was.width || now.height !== was.height) await page.setViewportSize(was);
    axeAudits.ms += Date.now() - t0;
  }
}

let page = null;
// the longest name an account may have (24 characters), whatever the pid's
// length: the layout checks see the widest header and seat lines, and a run
// with a 5-digit pid no longer laid out otherwise than one with 4 (the
// header at 768 px took a second line for e2e_21571_kqrqga, not e2e_9202_ys4mvv)
const username = `e2e_${suffix}`.replace(/[^A-Za-z0-9_-]/g, '_').padEnd(24, 'w').slice(0, 24);
const password = 'correct horse battery';
let gameURL = '';

try {
  await waitReady();
  context = await playwright.chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
    viewport: { width: 1280, height: 900 },
  });
  page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(15_000);
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/status of 40[19]/.test(m.text())) pageErrors.push('console: ' + m.text());
  });
  // Every Content-Security-Policy violation a page reports, on every
  // navigation (an init script runs before the page's own).
  const cspViolations = [];
  await context.exposeBinding('__e2eCSPViolation', (_source, v) => cspViolations.push(v));
  await context.addInitScript(() => {
    const report = (e) => window.__e2eCSPViolation(`${location.pathname}: ${e.effectiveDirective} refused ${e.blockedURI || 'inline'} ${e.sample}`);
    addEventListener('securitypolicyviolation', report, true);
  });

  await test('sign up', async () => {
    await page.goto(base + '/signup');
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill(password);
    await audit('sign up');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: `Hello, ${username}` }).waitFor();
  });

  await test('the session survives a reload through the refresh cookie', async () => {
    await page.reload();
    await page.getByRole('heading', { name: `Hello, ${username}` }).waitFor({ timeout: 10_000 });
    const cookies = await context.cookies(); // not by URL: a Secure cookie does not match http://
    const c = cookies.find((x) => x.name === 'seqleague_refresh');
    assert(c && c.httpOnly && c.secure, `the refresh cookie is missing or not HttpOnly+Secure: ${JSON.stringify(c)}`);
    const stored = await page.evaluate(() => JSON.stringify({ ...sessionStorage }) + JSON.stringify({ ...localStorage }));
    assert(!stored.includes(c.value), 'the refresh token leaked into web storage');
  });

  await test('start a 2-player Sequence game against a random bot', async () => {
    await newGame().getByLabel('Game', { exact: true }).selectOption('sequence');
    await newGame().getByLabel('Players').selectOption('2');
    await page.getByLabel(/^Seat 2/).selectOption('random');
    await page.getByRole('button', { name: 'Start the game' }).click();
    await page.waitForURL(/\/games\/[0-9a-f-]+$/);
    gameURL = page.url();
    await page.locator('[role=grid] [role=gridcell]').first().waitFor();
    const cells = await page.locator('[role=gridcell]').count();
    assert(cells === 100, `the board has ${cells} cells`);
    // the coordinates the move log names cells by: a–j over the columns, 1–10 beside the rows, row 1 at the top
    const coords = await page.evaluate(() => {
      const mid = (el, axis) => { const r = el.getBoundingClientRect(); return Math.round(axis === 'x' ? r.left + r.width / 2 : r.top + r.height / 2); };
      const cols = [...document.querySelectorAll('.board-cols > *')];
      const rows = [...document.querySelectorAll('.board-rows > *')];
      const off = [
        ...cols.map((c) => Math.abs(mid(c, 'x') - mid(document.querySelector(`[data-cell=${c.textContent}1]`), 'x'))),
        ...rows.map((r) => Math.abs(mid(r, 'y') - mid(document.querySelector(`[data-cell=a${r.textContent}]`), 'y'))),
      ];
      return { text: cols.map((c) => c.textContent).join('') + ' ' + rows.map((r) => r.textContent).join(','), off: Math.max(...off) };
    });
    assert(coords.text === 'abcdefghij 1,2,3,4,5,6,7,8,9,10' && coords.off <= 1, `the board's coordinates read "${coords.text}", up to ${coords.off} px off their cells`);
    await page.locator('.game[data-my-turn=true]').waitFor();
    // at 1280x900 the board and the hand are both in view (the hand once ended 963 px down)
    const m = await page.evaluate(() => ({
      board: document.querySelector('.board-wrap').getBoundingClientRect().bottom + scrollY,
      hand: document.querySelector('.hand').getBoundingClientRect().bottom + scrollY,
    }));
    assert(m.board <= 900 && m.hand <= 900, `at 1280x900 the board ends ${Math.round(m.board)} px down the page, the hand ${Math.round(m.hand)}: want both within 900`);
  });

  await test('the 2-player Sequence table at 390x844: the hand of 7 cards in one row, within the screen', async () => {
    // The 7th card once wrapped alone onto a second row: the hand ended 860 px down, below the fold.
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      const m = await page.evaluate(() => {
        const cards = [...document.querySelectorAll('.hand .hand-card')];
        const r = document.querySelector('.hand').getBoundingClientRect();
        return {
          n: cards.length,
          rows: new Set(cards.map((c) => Math.round(c.getBoundingClientRect().top))).size,
          clipped: cards.filter((c) => c.scrollWidth > c.clientWidth).length,
          handTop: Math.round(r.top + scrollY),
          handEnd: Math.round(r.bottom + scrollY),
          board: Math.round(document.querySelector('.board-wrap').getBoundingClientRect().top + scrollY),
          pageWidth: document.documentElement.scrollWidth,
        };
      });
      log(`    (390x844: the board starts ${m.board} px down, the hand ${m.handTop}–${m.handEnd}, ${m.n} cards in ${m.rows} row(s))`);
      assert(m.n === 7 && m.rows === 1 && m.clipped === 0, `${m.n} cards in ${m.rows} rows, ${m.clipped} clipped: want 7 in one row, none clipped`);
      assert(m.handEnd <= 844, `the hand ends ${m.handEnd} px down the page, want within 844`);
      assert(m.pageWidth <= 390, `the page is ${m.pageWidth} px wide`);
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  // withView shows the game at `url` (the current page's by default) as the server's GET of it answered,
  // changed by `change` (a view → nothing), and answers what `fn` does then; the game is shown as it is again.
  // Its event stream is held off meanwhile (it ends at once, asking the browser to come back in ten minutes):
  // its first event, the game's view as it is, would otherwise replace the changed one.
  const withView = async (change, fn, url = page.url()) => {
    const game = '**/api/v1/games/*';
    const events = '**/api/v1/games/*/events**';
    await page.route(events, (route) => route.fulfill({ status: 200, contentType: 'text/event-stream', body: 'retry: 600000\n\n' }));
    await page.route(game, async (route) => {
      if (route.request().method() !== 'GET') return route.fallback();
      const res = await route.fetch();
      const view = await res.json();
      change(view);
      await route.fulfill({ response: res, json: view });
    });
    try {
      await page.goto(url);
      await page.locator('.game[data-my-turn=true]').waitFor();
      return await fn();
    } finally {
      await page.unroute(game);
      await page.unroute(events);
      await page.goto(url);
      await page.locator('.game[data-my-turn]').waitFor();
    }
  };

  await test('the 2-player Sequence table at 360x740 and 320x640: seven 10s in one row, each card 40 px wide or more, the hand within 740 px', async () => {
    // At 360x740 seven 10s wrapped onto two rows and the hand ended 821 px down (760 in one row), below the
    // fold; at 320 px they wrapped too. The widest hand there is: seven 10s.
    const seen = [];
    const failed = [];
    await withView(
      (v) => void (v.state.hand = ['TH', 'TD', 'TC', 'TS', 'TH', 'TD', 'TC']),
      async () => {
        try {
          for (const [width, height] of [
            [360, 740],
            [320, 640],
          ]) {
            await page.setViewportSize({ width, height });
            const m = await page.evaluate(() => {
              const cards = [...document.querySelectorAll('.hand .hand-card')];
              const r = document.querySelector('.hand').getBoundingClientRect();
              return {
                faces: cards.map((c) => c.querySelector('.card').textContent).join(' '),
                rows: new Set(cards.map((c) => Math.round(c.getBoundingClientRect().top))).size,
                narrowest: Math.min(...cards.map((c) => c.getBoundingClientRect().width)),
                lowest: Math.min(...cards.map((c) => c.getBoundingClientRect().height)),
                font: parseFloat(getComputedStyle(cards[0].querySelector('.card')).fontSize),
                clipped: cards.filter((c) => c.scrollWidth > c.clientWidth).length,
                handEnd: Math.round(r.bottom + scrollY),
                pageWidth: document.documentElement.scrollWidth,
              };
            });
            seen.push(`${width}x${height}: ${m.faces} in ${m.rows} row(s), the narrowest ${m.narrowest.toFixed(1)}x${Math.round(m.lowest)} px, faces ${m.font.toFixed(1)} px, the hand ends ${m.handEnd}`);
            const want = (ok, msg) => ok || failed.push(`${width}x${height}: ${msg}`);
            want(m.faces === '10♥ 10♦ 10♣ 10♠ 10♥ 10♦ 10♣', `the hand reads ${m.faces}`);
            want(m.rows === 1 && m.clipped === 0, `7 cards in ${m.rows} rows, ${m.clipped} clipped: want one row, none clipped`);
            want(m.narrowest >= 40 && m.lowest >= 40, `the narrowest card is ${m.narrowest.toFixed(1)}x${m.lowest.toFixed(1)} px, want 40x40 at least`);
            want(m.font >= 14, `the card faces are ${m.font} px, want 14 at least`);
            want(width !== 360 || m.handEnd <= height, `the hand ends ${m.handEnd} px down the page, want within ${height}`);
            want(m.pageWidth <= width, `the page is ${m.pageWidth} px wide`);
          }
          await shot('table-phone-360.png');
          assert(failed.length === 0, failed.join('; '));
        } finally {
          log(`    (${seen.join('; ')})`);
          await page.setViewportSize({ width: 1280, height: 900 });
        }
      },
    );
  });

  await test("the word that a fill-in bot took the viewer's seat, at 360x740, 320x640 and 1280x900: the board where it was, the hand gone", async () => {
    // Above the table on a phone it pushed the board down by its own height (from 337 to 531 px at 360x740).
    const seen = [];
    const failed = [];
    const layout = () =>
      page.evaluate(() => {
        const box = (el) => {
          if (!el) return null;
          const r = el.getBoundingClientRect();
          return { top: Math.round(r.top + scrollY), bottom: Math.round(r.bottom + scrollY), left: Math.round(r.left), right: Math.round(r.right) };
        };
        const notice = document.querySelector('#seat-notice');
        return { board: box(document.querySelector('.board-wrap')), hand: box(document.querySelector('.hand')), notice: box(notice), text: notice?.textContent ?? '', pageWidth: document.documentElement.scrollWidth };
      });
    const abandon = (v) => void (v.seats[v.your_seat] = { ...v.seats[v.your_seat], bot: 'greedy', filled_by_bot: true, abandoned: true });
    try {
      for (const [width, height] of [
        [360, 740],
        [320, 640],
        [1280, 900],
      ]) {
        await page.setViewportSize({ width, height });
        // both as withView shows them, without an event stream: the same "connecting…" badge
        const before = await withView(() => {}, layout);
        const m = await withView(abandon, async () => {
          if (width === 360) await shot('table-fill-in-phone.png', { fullPage: true });
          return layout();
        });
        seen.push(`${width}x${height}: the board ${before.board.top}–${before.board.bottom} px, the hand's end ${before.hand.bottom}; with the word ${m.board.top}–${m.board.bottom}, the word ${m.notice?.top}–${m.notice?.bottom}`);
        const want = (ok, msg) => ok || failed.push(`${width}x${height}: ${msg}`);
        want(!before.notice && /^A fill-in bot now plays your seat/.test(m.text), `the word reads "${before.text}" before, "${m.text}" with the seat abandoned`);
        // the seat's hand is the bot's, which the server no longer sends its former player: no hand is shown
        want(m.board.top === before.board.top && m.hand === null, `the word moved the board from ${before.board.top} to ${m.board.top} px, or a hand is still shown (${JSON.stringify(m.hand)})`);
        if (width < 960) want(m.notice && m.notice.top >= m.board.bottom, `the word (${m.notice?.top} px) is not below the board (${m.board.bottom})`);
        else want(m.notice && m.notice.right <= m.board.left, `the word (to ${m.notice?.right} px across) is not beside the board (from ${m.board.left})`);
        want(m.pageWidth <= width, `the page is ${m.pageWidth} px wide`);
      }
      assert(failed.length === 0, failed.join('; '));
    } finally {
      log(`    (${seen.join('; ')})`);
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  await test('play the game to the end by clicking (one move by keyboard)', async () => {
    const game = page.locator('.game');
    let moves = 0;
    let shotTaken = false;
    let keyboardDone = false;
    const until = Date.now() + 100_000;
    while (Date.now() < until) {
      const status = await game.getAttribute('data-status');
      if (status === 'finished' || status === 'aborted') break;
      if ((await game.getAttribute('data-my-turn')) !== 'true') {
        await page.waitForFunction(() => {
          const g = document.querySelector('.game');
          return g && (g.getAttribute('data-my-turn') === 'true' || g.getAttribute('data-status') !== 'active');
        }, null, { timeout: 15_000 });
        continue;
      }
      const ply = Number(await game.getAttribute('data-ply'));
      const pass = page.getByRole('button', { name: /^Pass/ });
      const playable = page.locator('.hand-card.playable');
      if (await pass.count()) {
        await pass.click();
      } else if ((await playable.count()) === 0) {
        const exchange = page.getByRole('button', { name: /^Turn in dead/ }).first();
        assert(await exchange.count(), 'my turn, but no playable card, no pass and no exchange');
        await exchange.click();
      } else if (!keyboardDone && moves >= 1) {
        // Number key picks the card; the focus lands on its first target; Enter plays.
        const idx = Number(await playable.first().locator('.key').textContent());
        await page.keyboard.press(String(idx));
        // the focus moves in the effect after the render that marks the cell (a frame
        // later, more on a busy machine): wait for it rather than read in between
        await page
          .waitForFunction(() => document.activeElement?.matches('[role=gridcell][tabindex="0"]'), null, { timeout: 3000 })
          .catch(() => {});
        const focusCell = page.locator('[role=gridcell][tabindex="0"]');
        assert(await focusCell.evaluate((el) => el.classList.contains('target')), 'the keyboard focus is not on a legal target');
        const cell = await focusCell.getAttribute('data-cell');
        const focused = await page.evaluate(() => document.activeElement?.getAttribute('data-cell'));
        assert(focused === cell, `the number key left the page focus on ${focused}, want ${cell}`);
        // Away and back with the arrow keys, then Enter plays there.
        const [away, back] = cell.endsWith('10') ? ['ArrowUp', 'ArrowDown'] : ['ArrowDown', 'ArrowUp'];
        await page.keyboard.press(away);
        await page.keyboard.press(back);
        const now = await page.evaluate(() => document.activeElement?.getAttribute('data-cell'));
        assert(now === cell, `the arrow keys left the focus on ${now}, want ${cell}`);
        await page.keyboard.press('Enter');
        await page.waitForFunction((p) => Number(document.querySelector('.game')?.getAttribute('data-ply')) > p, ply);
        const kept = await page.evaluate(() => document.activeElement?.getAttribute('data-cell'));
        assert(kept === cell, `after the move the focus is on ${kept}, want ${cell}`);
        keyboardDone = true;
      } else {
        await playable.first().click();
        const targets = page.locator('.cell.target');
        const n = await targets.count();
        assert(n > 0, 'a playable card lights no cell');
        if (!shotTaken && moves >= 6) {
          await shot('table.png');
          await page.setViewportSize({ width: 390, height: 844 });
          await shot('table-phone.png', { fullPage: true });
          await page.setViewportSize({ width: 1280, height: 900 });
          await audit('the Sequence table (a card picked)');
          shotTaken = true;
        }
        await targets.nth(Math.floor(Math.random() * n)).click();
      }
      await page.waitForFunction((p) => {
        const g = document.querySelector('.game');
        return g && (Number(g.getAttribute('data-ply')) > p || g.getAttribute('data-status') !== 'active');
      }, ply, { timeout: 15_000 });
      moves++;
    }
    const status = await game.getAttribute('data-status');
    assert(status === 'finished', `the game did not finish (status ${status}, ${moves} moves)`);
    assert(keyboardDone, 'no move was played by keyboard');
    await page.locator('.result').waitFor();
    await shot('table-final.png');
    const result = (await page.locator('.result').textContent()).trim();
    log(`    (${moves} moves by the page; ${result})`);
    // the result shows once: the status line above the board once said it again
    const copies = await page.evaluate((r) => document.querySelector('.game').innerText.split(r).length - 1, result);
    assert(copies === 1, `the result "${result}" shows ${copies} times on the page, want once`);
    // the result line takes no height above the board: at 1280x900 the hand stays in view (it once ended 950 px down)
    const end = await page.evaluate(() => Math.round(document.querySelector('.hand').getBoundingClientRect().bottom + scrollY));
    assert(end <= 900, `with the result line shown the hand ends ${end} px down the page, want within 900`);
    await audit('the Sequence table, the game over');
    // a finished game's discard piles (some 20 cards a seat) wrap on a phone: a pile
    // once ran on in one unbreakable line, the page 1309 px wide at 360
    await page.setViewportSize({ width: 360, height: 740 });
    await page.locator('details.discards summary').click();
    const piles = await page.evaluate(() => ({
      sw: document.documentElement.scrollWidth,
      cards: [...document.querySelectorAll('.discard-row')].map((r) => r.querySelectorAll('.card').length),
      lines: [...document.querySelectorAll('.discard-row')].map((r) => Math.round(r.getBoundingClientRect().height)),
    }));
    log(`    (360x740: discard piles of ${piles.cards.join(' and ')} cards, ${piles.lines.join(' and ')} px tall, the page ${piles.sw} px wide)`);
    assert(piles.sw <= 360, `with the discard piles open the page is ${piles.sw} px wide at 360 (piles of ${piles.cards.join(', ')} cards)`);
    await page.locator('details.discards summary').click();
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  await test('open the replay and step through it', async () => {
    await page.getByRole('link', { name: 'Open the replay' }).click();
    await page.waitForURL(/\/replay$/);
    const ply = page.locator('.replay-controls .ply');
    await ply.waitFor();
    const total = Number((await ply.textContent()).match(/of (\d+)/)[1]);
    assert(total > 10, `the replay has ${total} plies`);
    await page.locator('.all-hands .replay-hand').first().waitFor();
    const hands = await page.locator('.all-hands .replay-hand').count();
    assert(hands === 2, `the replay shows ${hands} hands, want 2`);
    await shot('replay.png');
    await audit('the replay');
    await page.getByRole('button', { name: 'First position' }).click();
    await page.getByText(`Ply 0 of ${total}`).waitFor();
    await page.getByText('The deal.').waitFor();
    const dealCards = await page.locator('.all-hands .replay-hand').first().locator('.card').count();
    assert(dealCards === 7, `the deal shows ${dealCards} cards in seat 1's hand, want 7`);
    await page.getByRole('button', { name: 'Next move' }).click();
    await page.getByText(`Ply 1 of ${total}`).waitFor();
    await page.locator('.cell.last').waitFor();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.getByText(`Ply 3 of ${total}`).waitFor();
    await page.keyboard.press('ArrowLeft');
    await page.getByText(`Ply 2 of ${total}`).waitFor();
    await page.keyboard.press('End');
    await page.getByText(`Ply ${total} of ${total}`).waitFor();
    await shot('replay-end.png');
  });

  await test('home lists the finished game', async () => {
    await page.getByRole('link', { name: 'Home', exact: true }).click();
    await page.getByRole('heading', { name: 'My games', exact: true }).waitFor();
    await page.locator('.game-list li').first().waitFor();
    const tag = await page.locator('.game-list .tag').first().textContent();
    assert(['won', 'lost', 'draw'].includes(tag.trim()), `the game's tag is ${tag}`);
    await shot('home.png', { fullPage: true });
  });

  await test('play again: the rematch starts at once, the bot (one seat on) moving first', async () => {
    await page.goto(gameURL);
    await page.getByRole('button', { name: 'Play again' }).click();
    await page.waitForURL((u) => /\/games\/[0-9a-f-]+$/.test(u.pathname) && u.href !== gameURL);
    await page.locator('.game[data-status=active]').waitFor();
    await page.locator('.game[data-my-turn=true]').waitFor();
    const ply = Number(await page.locator('.game').getAttribute('data-ply'));
    assert(ply === 1, `my first turn of the rematch is at ply ${ply}, want 1 (the bot, now in seat 1, moves first)`);
    // the finished game names its rematch; asking again goes to the same game
    const rematchURL = page.url();
    await page.goto(gameURL);
    await page.getByRole('status').filter({ hasText: 'A rematch is set up.' }).waitFor();
    await page.getByRole('button', { name: 'Play the rematch' }).click();
    await page.waitForURL(rematchURL);
    await page.getByRole('link', { name: 'Home', exact: true }).click();
    await page.getByRole('heading', { name: 'My games', exact: true }).waitFor();
    // the lobby lists the rematch among the games being played, for anyone to watch
    const rematchPath = new URL(rematchURL).pathname;
    await page.locator(`.lobby a[href="${rematchPath}"]`).waitFor();
  });

  await test('an open game: its seat list, then cancelled', async () => {
    await newGame().getByLabel('Game', { exact: true }).selectOption('sequence');
    await newGame().getByLabel('Players').selectOption('2');
    await page.getByLabel(/^Seat 2/).selectOption('open');
    await page.getByRole('button', { name: 'Start the game' }).click();
    await page.waitForURL(/\/games\/[0-9a-f-]+$/);
    const cancel = page.getByRole('button', { name: 'Cancel game' });
    await cancel.waitFor();
    await audit('an open game (its seats)');
    await cancel.click();
    await cancel.waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'Home', exact: true }).click();
    await page.getByRole('heading', { name: 'My games', exact: true }).waitFor();
  });

  await test('a Stacks table: piles, hand and a played turn', async () => {
    await newGame().getByLabel('Game', { exact: true }).selectOption('stacks');
    await page.getByLabel(/^Seat 2/).selectOption('random');
    await page.getByRole('button', { name: 'Start the game' }).click();
    await page.waitForURL(/\/games\/[0-9a-f-]+$/);
    await page.locator('.game[data-game=stacks][data-my-turn=true]').waitFor();
    await audit('the Stacks table');
    const ply = Number(await page.locator('.game').getAttribute('data-ply'));
    // Play what can go on a pile, else end the turn with a discard.
    const playable = page.locator('.hand-card.playable').first();
    if (await playable.count()) {
      await playable.click();
      await page.locator('.actions button.primary').first().click();
    } else {
      await page.locator('.hand .hand-card').first().click();
      await page.getByRole('button', { name: 'Discard it and end the turn' }).click();
    }
    await page.waitForFunction((p) => Number(document.querySelector('.game')?.getAttribute('data-ply')) > p, ply);
    await shot('stacks.png');
  });

  // startTable opens a new casual table from Home and waits for the viewer's turn: every seat
  // but the viewer's a bot (the form's default), teams as the form sets them unless given.
  const startTable = async (game, players, teams) => {
    await page.getByRole('link', { name: 'Home', exact: true }).click();
    await newGame().getByLabel('Game', { exact: true }).selectOption(game);
    await newGame().getByLabel('Players').selectOption(String(players));
    if (teams) await newGame().getByLabel('Teams').selectOption(String(teams));
    await page.getByRole('button', { name: 'Start the game' }).click();
    await page.waitForURL(/\/games\/[0-9a-f-]+$/);
    await page.locator(`.game[data-game=${game}][data-my-turn=true]`).waitFor();
    // measured before the event stream is up, the wider "connecting…" badge can wrap the heading at 320 px
    await page.locator('.conn.up').waitFor();
  };

  // tableLayout measures the table in page coordinates (top and bottom down the page, left and right across):
  // each of `parts` (name → selector; null where nothing matches), every seat line, and the page's width.
  const tableLayout = (parts) =>
    page.evaluate((parts) => {
      const box = (el) => {
        const r = el.getBoundingClientRect();
        return { top: Math.round(r.top + scrollY), bottom: Math.round(r.bottom + scrollY), left: Math.round(r.left), right: Math.round(r.right), height: Math.round(r.height) };
      };
      const at = (selector) => {
        const el = document.querySelector(selector);
        return el && box(el);
      };
      return {
        ...Object.fromEntries(Object.entries(parts).map(([name, selector]) => [name, at(selector)])),
        seats: [...document.querySelectorAll('.players > .player')].map(box),
        pageWidth: document.documentElement.scrollWidth,
      };
    }, parts);

  // checkSeatDetails opens "Seat details" on a table of one-line seats, checks the lines became
  // full cards (layout's nameWidth measures seat `seat`'s full name) and that seat's name reads
  // `want`, then closes them again.
  const checkSeatDetails = async (layout, seat, want) => {
    const toggle = page.getByRole('button', { name: 'Seat details' });
    await toggle.click();
    await page.locator('.players.seat-lines.details').waitFor();
    const open = await layout();
    assert(open.nameWidth > 100 && open.heights.every((h) => h > 32), `the details did not open: ${JSON.stringify(open)}`);
    const full = await page.locator('.players .player').nth(seat).locator('.full-name').textContent();
    assert(want.test(full), `seat ${seat + 1} reads ${full}`);
    await toggle.click();
    await page.locator('.players.seat-lines:not(.details)').waitFor();
  };

  await test('a 6-player Stacks table at 320 px: one line a seat, the piles within the first 530 px', async () => {
    // Six full seat cards once ran ~530 px above the piles on a phone (the piles 764 px down). The budget was
    // 500 px; the goal's line ("To win: 5 chips, 2+ red, 2+ blue") and the lines' column names ("cards",
    // "chips", "discard") take some 35 px more (measured 501 with a 2-line status line, 523 with a 3-line one).
    await startTable('stacks', 6);
    await page.setViewportSize({ width: 320, height: 640 });
    try {
      const layout = () =>
        page.evaluate(() => {
          const top = (sel) => Math.round(document.querySelector(sel).getBoundingClientRect().top + scrollY);
          const lines = [...document.querySelectorAll('.players.seat-lines > .player')];
          return {
            piles: top('.piles'),
            hand: top('.hand-area'),
            heights: lines.map((l) => Math.round(l.getBoundingClientRect().height)),
            mine: lines.flatMap((l, i) => (l.classList.contains('mine') ? [i] : [])),
            lead: lines.map((l) => l.querySelector('.seat-lead')?.textContent),
            nameWidth: Math.round(lines[1]?.querySelector('.full-name')?.getBoundingClientRect().width ?? -1),
            chips: lines.map((l) => Math.round(l.querySelector('.chips')?.getBoundingClientRect().width ?? 0)),
            pageWidth: document.documentElement.scrollWidth,
          };
        });
      const m = await layout();
      assert(m.heights.length === 6 && m.heights.every((h) => h <= 32), `the seat lines are ${m.heights} px tall, want 6 of one line`);
      assert(m.mine.join() === '0' && m.lead[0] === '▶1', `my line ${m.mine}, its lead ${m.lead[0]}: want 0 and ▶1`);
      assert(m.nameWidth <= 1, 'the full name shows on a compact line');
      assert(m.chips.every((w) => w > 20), `a line's chips are hidden: ${m.chips}`);
      assert(m.piles <= 530, `the piles start ${m.piles} px down the page, want at most 530`);
      assert(m.pageWidth <= 320, `the page is ${m.pageWidth} px wide`);
      await shot('stacks-6-phone.png', { fullPage: true });
      await checkSeatDetails(layout, 1, /^bot-random \(seat 2\)$/);
      log(`    (320 px: the piles start ${m.piles} px down, the hand ${m.hand} px)`);
      // a portrait tablet: the piles and the hand in view
      await page.setViewportSize({ width: 768, height: 1024 });
      const t = await page.evaluate(() => ({
        piles: Math.round(document.querySelector('.piles').getBoundingClientRect().top + scrollY),
        hand: Math.round(document.querySelector('.hand-area').getBoundingClientRect().bottom + scrollY),
        pageWidth: document.documentElement.scrollWidth,
      }));
      log(`    (768x1024: the piles start ${t.piles} px down, the hand ends ${t.hand} px)`);
      assert(t.piles <= STACKS_TABLET_PILES && t.hand <= STACKS_TABLET_HAND, `at 768x1024 the piles start ${t.piles} px down, the hand ends ${t.hand}: want at most ${STACKS_TABLET_PILES} and ${STACKS_TABLET_HAND}`);
      assert(t.pageWidth <= 768, `the page is ${t.pageWidth} px wide`);
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  await test('a 12-player Sequence table at 320 px: one line a seat, the board within the first 600 px', async () => {
    // Twelve full seat cards once ran ~1,300 px above the board on a phone.
    await startTable('sequence', 12, 3);
    await page.setViewportSize({ width: 320, height: 640 });
    try {
      const layout = () =>
        page.evaluate(() => {
          const top = (sel) => Math.round(document.querySelector(sel).getBoundingClientRect().top + scrollY);
          const lines = [...document.querySelectorAll('.players.seat-lines > .player')];
          const which = (cls) => lines.flatMap((l, i) => (l.classList.contains(cls) ? [i] : []));
          return {
            board: top('.board-wrap'),
            hand: top('.hand-area'),
            heights: lines.map((l) => Math.round(l.getBoundingClientRect().height)),
            mine: which('mine'),
            toMove: which('to-move'),
            nameWidth: Math.round(lines[4].querySelector('.full-name').getBoundingClientRect().width),
            pageWidth: document.documentElement.scrollWidth,
          };
        });
      const m = await layout();
      assert(m.heights.length === 12 && m.heights.every((h) => h <= 32), `the seat lines are ${m.heights} px tall, want 12 of one line`);
      assert(m.mine.join() === '0' && m.toMove.join() === '0', `my line ${m.mine}, the line to move ${m.toMove}: want 0 and 0`);
      assert(m.nameWidth <= 1, 'the full name shows on a compact line');
      assert(m.board <= 600, `the board starts ${m.board} px down the page, want at most 600`);
      assert(m.pageWidth <= 320, `the page is ${m.pageWidth} px wide`);
      await shot('table-12-phone.png', { fullPage: true });
      // "Seat details" brings back the full cards: a name with its seat and team, and back again
      await checkSeatDetails(layout, 4, /^bot-random \(seat 5, (Blue|Green|Red) team\)$/);
      log(`    (320 px: the board starts ${m.board} px down, the hand ${m.hand} px)`);
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  await test('the 12-player Sequence table at 1280x900: the seats beside the board, the board and the hand in view', async () => {
    // Twelve seat cards above the board once put the board 442 px down and the hand at 1,126 px, below the fold.
    await page.locator('.game[data-game=sequence][data-my-turn=true]').waitFor();
    const m = await tableLayout({ board: '.board-wrap', hand: '.hand', list: '.players' });
    const lastSeat = m.seats.at(-1);
    assert(m.seats.length === 12, `${m.seats.length} seats`);
    assert(m.board.bottom <= 900 && m.hand.bottom <= 900, `the board ends ${m.board.bottom} px down the page, the hand ${m.hand.bottom}: want both within 900`);
    assert(m.board.right - m.board.left >= 600, `the board is ${m.board.right - m.board.left} px wide, want at least 600`);
    assert(m.list.right <= m.board.left, `the seat list (${m.list.left}–${m.list.right}) is not beside the board (${m.board.left}–${m.board.right})`);
    assert(lastSeat.bottom <= 900, `the last seat ends ${lastSeat.bottom} px down`);
    assert(m.pageWidth <= 1280, `the page is ${m.pageWidth} px wide`);
    await shot('table-12.png');
    log(`    (1280x900: the board ${m.board.top}–${m.board.bottom} px, the hand ends ${m.hand.bottom} px)`);
  });

  await test('Sequence tables at 768x1024 (a portrait tablet): the board within 600 px, the hand in view, for 12, 4 and 2 players', async () => {
    // Between the phone's one-line seats (to 40rem) and the wide screen's seat column (from 60rem), twelve
    // full seat cards once stacked above the board: at 768x1024 the board started 711 px down and the hand
    // ended 1,456 px (4 players: 353 and 1,097; 2 players: 218 and 963).
    const seen = [];
    const failed = [];
    const check = async (players) => {
      await page.locator('.game[data-game=sequence][data-my-turn=true]').waitFor();
      const m = await tableLayout({ board: '.board-wrap', hand: '.hand' });
      const heights = m.seats.map((seat) => seat.height);
      seen.push(`${players} players: board ${m.board.top}–${m.board.bottom} (${m.board.right - m.board.left} wide), hand ends ${m.hand.bottom}`);
      const want = (ok, msg) => ok || failed.push(`${players} players: ${msg}`);
      want(m.seats.length === players, `${m.seats.length} seats`);
      want(heights.every((h) => h <= 32), `the seat lines are ${heights} px tall, want one line each`);
      want(m.board.top <= 600, `the board starts ${m.board.top} px down the page, want at most 600`);
      want(m.hand.bottom <= 1024, `the hand ends ${m.hand.bottom} px down the page, want it within 1024`);
      want(m.board.right - m.board.left >= 560, `the board is ${m.board.right - m.board.left} px wide, want at least 560`);
      want(m.pageWidth <= 768, `the page is ${m.pageWidth} px wide`);
    };
    await page.setViewportSize({ width: 768, height: 1024 });
    try {
      await check(12); // the 12-player table of the tests above
      await shot('table-12-tablet.png');
      await startTable('sequence', 4);
      await check(4);
      await startTable('sequence', 2);
      await check(2);
      assert(failed.length === 0, failed.join('; '));
    } finally {
      log(`    (768x1024: ${seen.join('; ')})`);
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  // checkNotices answers every move with a refusal and, on each table `tables` opens, makes one (`makeMove`)
  // and checks its notice at 1280x900: beside the table's `main` area (the board, or the piles), which stays
  // where it was, with the hand, within the fold, and the page within 1280 px. A notice above the table once
  // pushed both down by its own height: a 2-player Sequence hand to 939 px (881 without), a 2-seat Stacks
  // table's piles from 226 to 284 px and its hand from 346 to 403.
  const checkNotices = async ({ game, main, makeMove, tables }) => {
    const layout = () => tableLayout({ main, hand: '.hand', notice: '.game [role=alert]' });
    const moves = '**/api/v1/games/*/moves';
    const refused = 'Refused by the browser test.';
    const seen = [];
    const failed = [];
    await page.route(moves, (route) =>
      route.fulfill({ status: 422, contentType: 'application/problem+json', body: JSON.stringify({ title: 'Unprocessable', status: 422, detail: refused }) }),
    );
    const errors = pageErrors.length;
    try {
      for (const { players, open, shotName } of tables) {
        await open();
        await page.locator(`.game[data-game=${game}][data-my-turn=true]`).waitFor();
        const before = await layout();
        const want = (ok, msg) => ok || failed.push(`${players} players: ${msg}`);
        want(!before.notice, 'an error shows before any move');
        await makeMove();
        await page.getByRole('alert').filter({ hasText: refused }).waitFor();
        const m = await layout();
        seen.push(`${players} players: ${main} ${before.main.top}–${before.main.bottom}, the hand ends ${before.hand.bottom}; with the notice ${m.main.top}–${m.main.bottom}, ${m.hand.bottom}, the notice ${m.notice.left}–${m.notice.right} × ${m.notice.top}–${m.notice.bottom}, the last seat ends ${m.seats.at(-1).bottom}`);
        want(m.main.top === before.main.top, `the notice moved ${main} from ${before.main.top} px down to ${m.main.top}`);
        want(m.hand.bottom === before.hand.bottom && m.hand.bottom <= 900, `with the notice the hand ends ${m.hand.bottom} px down the page (${before.hand.bottom} without it): want where it was, within 900`);
        want(m.notice.right <= m.main.left, `the notice (${m.notice.left}–${m.notice.right}) is not beside ${main} (${m.main.left}–${m.main.right})`);
        want(m.pageWidth <= 1280, `the page is ${m.pageWidth} px wide`);
        if (shotName) await shot(shotName);
      }
      assert(failed.length === 0, failed.join('; '));
    } finally {
      log(`    (1280x900: ${seen.join('; ')})`);
      await page.unroute(moves);
      // the refused answers' console lines are this test's own
      for (let i = pageErrors.length - 1; i >= errors; i--) if (/status of 422/.test(pageErrors[i])) pageErrors.splice(i, 1);
    }
  };

  await test('a notice at the 1280x900 Sequence table (a refused move), 2 and 12 players: beside the board, the board and the hand where they were', () =>
    checkNotices({
      game: 'sequence',
      main: '.board-wrap',
      makeMove: async () => {
        await page.locator('.hand-card.playable').first().click();
        await page.locator('.cell.target').first().click();
      },
      tables: [
        { players: 2, open: async () => {}, shotName: 'table-notice.png' }, // the 2-player table of the test above
        { players: 12, open: () => startTable('sequence', 12, 3) },
      ],
    }));

  await test('a notice at the 1280x900 Stacks table (a refused move), 2 and 6 players: beside the piles, the piles and the hand where they were', () =>
    checkNotices({
      game: 'stacks',
      main: '.piles',
      makeMove: async () => {
        // a card to play, else one to discard: either way the move is refused
        const playable = page.locator('.hand-card.playable');
        await ((await playable.count()) ? playable.first() : page.locator('.hand .hand-card').first()).click();
        await page.locator('.actions [data-play]').first().click();
      },
      tables: [
        { players: 2, open: () => startTable('stacks', 2), shotName: 'stacks-notice.png' },
        { players: 6, open: () => startTable('stacks', 6) },
      ],
    }));

  await test('a notice at a 2-seat Stacks table at 390x844 (a refused move): over the top of the screen, the piles and the hand where they were', async () => {
    // Above the table on a phone a refusal pushed the piles and the hand down by its own height (the hand's
    // top from 410 to 467 px on an empty table, out of view once the piles grow); it floats over the top of
    // the screen now, until dismissed.
    const moves = '**/api/v1/games/*/moves';
    const refused = 'Refused by the browser test.';
    const errors = pageErrors.length;
    await startTable('stacks', 2);
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      const layout = () => tableLayout({ piles: '.piles', hand: '.hand' });
      const before = await layout();
      await page.route(moves, (route) =>
        route.fulfill({ status: 422, contentType: 'application/problem+json', body: JSON.stringify({ title: 'Unprocessable', status: 422, detail: refused }) }),
      );
      const playable = page.locator('.hand-card.playable');
      await ((await playable.count()) ? playable.first() : page.locator('.hand .hand-card').first()).click();
      await page.locator('.actions [data-play]').first().click();
      const alert = page.getByRole('alert').filter({ hasText: refused });
      await alert.waitFor();
      const m = await layout();
      const notice = await alert.boundingBox(); // in the viewport
      const hand = await page.locator('.hand').boundingBox();
      log(`    (390x844: the piles start ${before.piles.top} px down, the hand ${before.hand.top}–${before.hand.bottom}; with the notice ${m.piles.top}, ${m.hand.top}–${m.hand.bottom}, the notice ${Math.round(notice.y)}–${Math.round(notice.y + notice.height)} on the screen)`);
      assert(m.piles.top === before.piles.top && m.hand.top === before.hand.top, `the notice moved the piles from ${before.piles.top} to ${m.piles.top} px and the hand from ${before.hand.top} to ${m.hand.top}`);
      assert(notice.y >= 0 && notice.y + notice.height <= 844, `the notice is not on the screen: ${JSON.stringify(notice)}`);
      assert(notice.y + notice.height <= hand.y, `the notice (to ${notice.y + notice.height}) covers the hand (from ${hand.y})`);
      assert(m.pageWidth <= 390, `the page is ${m.pageWidth} px wide`);
      await shot('stacks-notice-phone.png');
      // dismissed, it goes, and the focus goes on to the hand
      await page.getByRole('button', { name: 'Dismiss' }).click();
      await alert.waitFor({ state: 'detached' });
      const focused = await page.waitForFunction(() => document.activeElement?.closest('.hand') != null, null, { timeout: 2000 }).catch(() => null);
      assert(focused, `after Dismiss the focus is on ${await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 80))}, not in the hand`);
    } finally {
      await page.unroute(moves);
      await page.setViewportSize({ width: 1280, height: 900 });
      for (let i = pageErrors.length - 1; i >= errors; i--) if (/status of 422/.test(pageErrors[i])) pageErrors.splice(i, 1);
    }
  });

  await test('a 2-seat Stacks table at 360x740 with "Steal chip" discard tops: the own name keeps its width, the hand one row (at 320 px too)', async () => {
    // On one line "Steal chip" took 81 px of each seat line, and the viewer's own name beside its "you" tag
    // showed 58 px of itself ("pje6…"); the top now stands on two lines, as wide as its longer word.
    await startTable('stacks', 2);
    await page.setViewportSize({ width: 360, height: 740 });
    try {
      const layout = () =>
        page.evaluate(() =>
          [...document.querySelectorAll('.players.seat-lines > .player')].map((l) => ({
            name: Math.round(l.querySelector('.short-name').getBoundingClientRect().width),
            top: Math.round(l.querySelector('.discard-top').getBoundingClientRect().width),
            // the card's words, without the "discard" a compact line hides
            topText: l.querySelector('.discard-top > :last-child').textContent,
            height: Math.round(l.getBoundingClientRect().height),
            pageWidth: document.documentElement.scrollWidth,
          })),
        );
      const empty = await withView((v) => void (v.state.discards = v.state.discards.map(() => [])), layout);
      const steal = await withView((v) => void (v.state.discards = v.state.discards.map((_, i) => [i ? 'STEAL_CARD' : 'STEAL_CHIP'])), layout);
      log(`    (360x740: my name ${empty[0].name} px wide beside a "—" top (${empty[0].top} px), ${steal[0].name} beside "${steal[0].topText}" (${steal[0].top} px); the lines ${steal.map((l) => l.height)} px tall)`);
      assert(steal[0].topText === 'Steal chip' && steal[1].topText === 'Steal card', `the tops read ${steal.map((l) => l.topText)}`);
      assert(steal.every((l) => l.top <= 50), `the tops are ${steal.map((l) => l.top)} px wide, want at most 50`);
      assert(steal[0].name >= 80 && empty[0].name - steal[0].name <= 24, `my name is ${steal[0].name} px wide beside "Steal chip", ${empty[0].name} beside "—": want 80 at least, and at most 24 less`);
      assert(steal.every((l) => l.height <= 32), `the seat lines are ${steal.map((l) => l.height)} px tall, want one line each`);
      assert(steal[0].pageWidth <= 360, `the page is ${steal[0].pageWidth} px wide`);
      // Own discard top "Steal chip" is a card of the hand: beside five cards of 57 px it took 129 px and
      // wrapped onto a second row at 360 px (the hand 135 px tall). A hand with a two-word card of its own:
      const hand = () =>
        page.evaluate(() => {
          const cards = [...document.querySelectorAll('.hand .hand-card')];
          return {
            faces: cards.map((c) => c.querySelector('.scard').getAttribute('aria-label')).join(', '),
            rows: new Set(cards.map((c) => Math.round(c.getBoundingClientRect().top))).size,
            narrowest: Math.min(...cards.map((c) => c.getBoundingClientRect().width)),
            clipped: cards.filter((c) => c.scrollWidth > c.clientWidth).length,
            height: Math.round(document.querySelector('.hand').getBoundingClientRect().height),
            pageWidth: document.documentElement.scrollWidth,
          };
        });
      const rows = [];
      for (const [width, height] of [
        [360, 740],
        [320, 640],
      ]) {
        await page.setViewportSize({ width, height });
        const m = await withView((v) => {
          v.state.hand = ['RW', 'B2', 'SKIP', 'B4', 'STEAL_CARD'];
          v.state.discards[v.your_seat] = ['STEAL_CHIP'];
        }, hand);
        rows.push(`${width}x${height}: ${m.faces} in ${m.rows} row(s), the narrowest ${m.narrowest.toFixed(1)} px, the hand ${m.height} px tall`);
        const where = `at ${width}x${height}`;
        assert(m.faces === 'red wild, blue 2, Skip, blue 4, Steal a Card, Steal a Chip', `${where} the hand reads ${m.faces}`);
        assert(m.rows === 1 && m.clipped === 0, `${where} 6 cards in ${m.rows} rows, ${m.clipped} clipped: want one row, none clipped`);
        assert(m.narrowest >= 40, `${where} the narrowest card is ${m.narrowest.toFixed(1)} px wide, want 40 at least`);
        assert(m.pageWidth <= width, `${where} the page is ${m.pageWidth} px wide`);
      }
      log(`    (${rows.join('; ')})`);
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  await test('the own Stacks seat at 1280x900, a 24-character name and "to move": hand size, chips and discard top on the name\'s line', async () => {
    // The name and its "to move" badge took the card's width, and the discard top "—" (the chips too, with a
    // longer name) wrapped onto a second line of the card.
    const name = 'pje608_weekend_tourneyer';
    await withView(
      (v) => void (v.seats[v.your_seat].user.username = name),
      async () => {
        const m = await page.evaluate(() => {
          const card = document.querySelector('.players > .player.mine');
          const parts = ['.player-name', '.hand-size', '.chips', '.discard-top'].map((sel) => card.querySelector(sel).getBoundingClientRect());
          return {
            name: card.querySelector('.full-name').textContent,
            badge: card.querySelector('.badges').textContent,
            middles: parts.map((r) => Math.round(r.top + r.height / 2)),
            right: Math.round(parts[3].right),
            cardRight: Math.round(card.getBoundingClientRect().right),
            height: Math.round(card.getBoundingClientRect().height),
            pageWidth: document.documentElement.scrollWidth,
          };
        });
        log(`    (1280x900: "${m.name}" ${m.badge}: name, hand size, chips and discard top centred at ${m.middles.join(', ')} px, the card ${m.height} px tall)`);
        assert(m.name.startsWith(name) && m.badge === 'to move', `the seat reads ${m.name}, ${m.badge}`);
        assert(Math.max(...m.middles) - Math.min(...m.middles) <= 2, `the name, hand size, chips and discard top are centred at ${m.middles}: want one line`);
        assert(m.cardRight - m.right <= 16, `the discard top ends ${m.cardRight - m.right} px before the card's edge`);
        assert(m.pageWidth <= 1280, `the page is ${m.pageWidth} px wide`);
        await shot('stacks-long-name.png');
      },
    );
  });

  await test("the autopilot's word on a timed-out turn at a 2-player Sequence table at 390x844: over the top of the screen, the board and the hand where they were", async () => {
    // Above the table it pushed the board and the hand down by its own height, the hand below the fold.
    const login = await page.request.post(base + '/api/v1/auth/login', { data: { username, password } });
    assert(login.ok(), `login: ${login.status()}`);
    const { access_token: token } = await login.json();
    const created = await page.request.post(base + '/api/v1/games', {
      headers: { Authorization: `Bearer ${token}` },
      data: { game: 'sequence', players: 2, teams: 2, seats: [{ user: 'me' }, { bot: 'random' }], clock: { turn_seconds: 4 }, max_timeouts: 100 },
    });
    assert(created.ok(), `create a game: ${created.status()} ${await created.text()}`);
    const { id } = await created.json();
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.goto(`${base}/games/${id}`);
      await page.locator('.game[data-my-turn=true]').waitFor();
      const layout = () => tableLayout({ board: '.board-wrap', hand: '.hand', notice: '#seat-notice' });
      const before = await layout();
      assert(!before.notice, 'the notice shows before any turn timed out');
      const notice = page.locator('#seat-notice').filter({ hasText: 'Your turn timed out' });
      await notice.waitFor({ timeout: 10_000 });
      const m = await layout();
      const box = await notice.boundingBox(); // in the viewport
      const hand = await page.locator('.hand').boundingBox();
      log(`    (390x844: the board starts ${before.board.top} px down, the hand ${before.hand.top}–${before.hand.bottom}; with the notice ${m.board.top}, ${m.hand.top}–${m.hand.bottom}, the notice ${Math.round(box.y)}–${Math.round(box.y + box.height)} on the screen)`);
      assert(m.board.top === before.board.top && m.hand.bottom === before.hand.bottom, `the notice moved the board from ${before.board.top} to ${m.board.top} px and the hand's end from ${before.hand.bottom} to ${m.hand.bottom}`);
      assert(m.hand.bottom <= 844, `the hand ends ${m.hand.bottom} px down the page, want within 844`);
      assert(box.y >= 0 && box.y + box.height <= 844, `the notice is not on the screen: ${JSON.stringify(box)}`);
      assert(box.y + box.height <= hand.y, `the notice (to ${box.y + box.height}) covers the hand (from ${hand.y})`);
      assert(m.pageWidth <= 390, `the page is ${m.pageWidth} px wide`);
      await shot('table-timeout-phone.png');
      // dismissed, it goes, and the focus goes on to the hand
      await page.locator('.seat-toast').getByRole('button', { name: 'Dismiss' }).click();
      await notice.waitFor({ state: 'detached' });
      const focused = await page.waitForFunction(() => document.activeElement?.closest('.hand') != null, null, { timeout: 2000 }).catch(() => null);
      assert(focused, `after Dismiss the focus is on ${await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 80))}, not in the hand`);
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  await test('leave a Stacks game in play by keyboard: a fill-in bot takes the seat at once, the focus on the word that says so', async () => {
    // A player who had to go could only close the page; the table waited out their clock until repeated timeouts
    // handed the seat to a bot. Once there was a way, the focus fell to the page after it (the last render came
    // before the focus was asked for).
    const login = await page.request.post(base + '/api/v1/auth/login', { data: { username, password } });
    assert(login.ok(), `login: ${login.status()}`);
    const { access_token: token } = await login.json();
    const created = await page.request.post(base + '/api/v1/games', {
      headers: { Authorization: `Bearer ${token}` },
      data: { game: 'stacks', players: 2, seats: [{ user: 'me' }, { bot: 'random' }] },
    });
    assert(created.ok(), `create a game: ${created.status()} ${await created.text()}`);
    const { id } = await created.json();
    await page.goto(`${base}/games/${id}`);
    await page.locator('.game[data-my-turn=true]').waitFor();
    await page.locator('[data-action=leave-game]').focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.textContent === 'Stay');
    await page.keyboard.press('Shift+Tab');
    const confirm = await page.evaluate(() => document.activeElement?.textContent);
    assert(confirm === 'Leave, a bot takes my seat', `Shift+Tab from "Stay" reached ${confirm}`);
    await page.keyboard.press('Enter');
    await page.locator('#seat-notice').filter({ hasText: 'A fill-in bot now plays your seat: you left the game' }).waitFor();
    const focused = await page.waitForFunction(() => document.activeElement?.id === 'seat-notice', null, { timeout: 3000 }).catch(() => null);
    assert(focused, `after leaving the focus is on ${await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 80))}, not on the word that a bot plays the seat`);
    // the bot plays the seat on: the game moves without the player
    await page.waitForFunction(() => Number(document.querySelector('.game')?.getAttribute('data-ply')) > 0, null, { timeout: 10_000 });
    assert((await page.locator('[data-action=leave-game]').count()) === 0, 'a player who left is still offered to leave');
  });

  await test('resign a Sequence game against a bot: the result says who resigned, the focus on it, and the replay says it too', async () => {
    // A lost game had to be played out, or left to a fill-in bot that played it out.
    const login = await page.request.post(base + '/api/v1/auth/login', { data: { username, password } });
    assert(login.ok(), `login: ${login.status()}`);
    const { access_token: token } = await login.json();
    const created = await page.request.post(base + '/api/v1/games', {
      headers: { Authorization: `Bearer ${token}` },
      data: { game: 'sequence', players: 2, seats: [{ user: 'me' }, { bot: 'random' }] },
    });
    assert(created.ok(), `create a game: ${created.status()} ${await created.text()}`);
    const { id } = await created.json();
    await page.goto(`${base}/games/${id}`);
    await page.locator('.game[data-my-turn=true]').waitFor();
    await page.locator('[data-action=resign-game]').click();
    await page.getByRole('group', { name: 'Resign the game? The other side wins at once' }).getByRole('button', { name: 'Resign', exact: true }).click();
    const result = page.locator('.result');
    await result.filter({ hasText: 'Green team (▲) wins. You resigned.' }).waitFor();
    const focused = await page.waitForFunction(() => document.activeElement?.classList.contains('result'), null, { timeout: 3000 }).catch(() => null);
    assert(focused, `after resigning the focus is on ${await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 80))}, not on the result`);
    assert((await page.locator('.leave-table').count()) === 0, 'a finished game still offers to leave or resign');
    const game = await (await page.request.get(`${base}/api/v1/games/${id}`, { headers: { Authorization: `Bearer ${token}` } })).json();
    assert(game.ended_by === 'resign' && game.result?.winner === 1, `the game as the API tells it: ended_by ${game.ended_by}, result ${JSON.stringify(game.result)}`);
    await page.goto(`${base}/games/${id}/replay`);
    await page.getByText('Green team (▲) won. Blue team (●) resigned.').waitFor();
  });

  await test('clubs: create one, make an invite code', async () => {
    await page.getByRole('link', { name: 'Clubs' }).click();
    await page.getByRole('heading', { name: 'Create a club' }).waitFor();
    await audit('the clubs');
    await page.getByLabel('Name').fill(`E2E Club ${suffix}`);
    await page.getByLabel('Description').fill('Made by the browser tests');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: `E2E Club ${suffix}` }).waitFor();
    await page.locator('.member-list').getByText(username).waitFor();
    await page.getByRole('button', { name: 'Make an invite code' }).click();
    const code = (await page.locator('.invite .code').textContent()).trim();
    assert(code.length >= 4, `invite code ${code}`);
    const link = await page.getByLabel('Link to share').inputValue();
    assert(link.includes(encodeURIComponent(code)), `the invite link ${link} lacks the code`);
    // Every choice of the form is one the server takes (it has no unlimited invites).
    const shown = await page.locator('.invite').textContent();
    assert(shown.includes('10 uses'), `the invite should be good for 10 uses: ${shown}`);
    await audit('a club (its owner, an invite code made)');
  });

  // ---- competitions ----
  const clubName = `E2E Club ${suffix}`;
  let clubURL = '';
  let knockoutURL = '';

  await test('a league, renamed, and a season (the club owner organizes)', async () => {
    clubURL = page.url();
    assert(/\/clubs\/[0-9a-f-]+$/.test(clubURL), `not on the club page: ${clubURL}`);
    await page.getByLabel('League name').fill('E2E Draft League');
    await page.getByRole('button', { name: 'Create league' }).click();
    await page.getByRole('link', { name: 'E2E Draft League' }).click();
    await page.getByRole('heading', { name: 'E2E Draft League', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Edit name and description…' }).click();
    await page.getByLabel('League name').fill('E2E League');
    await page.getByLabel('Description').fill('Knockouts on Mondays');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { name: 'E2E League', level: 1 }).waitFor();
    await page.locator('.lead', { hasText: 'Knockouts on Mondays' }).waitFor();
    await page.locator('.league-edit [role=status]', { hasText: 'Saved.' }).waitFor();
    await page.getByLabel('Season name').fill('Spring');
    await page.getByRole('button', { name: 'Create season' }).click();
    await page.getByRole('link', { name: 'Spring' }).waitFor();
    await audit('a league');
  });

  await test('create a knockout tournament with the form', async () => {
    await page.goto(clubURL);
    await page.getByRole('link', { name: 'New tournament' }).click();
    await page.getByRole('heading', { name: 'New tournament' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('E2E Knockout');
    assert((await page.getByLabel('Club', { exact: true }).inputValue()).length > 0, 'the club is not chosen from the link');
    await page.getByLabel('Season (optional)').selectOption({ label: 'E2E League: Spring' });
    await page.getByLabel('Format', { exact: true }).selectOption('single-elimination');
    await page.getByLabel('Seeding').selectOption('manual');
    await page.getByLabel('Fill-in bot level').selectOption('random');
    assert(await page.getByLabel('Rated games', { exact: true }).isChecked(), 'rated is not the default');
    await shot('tournament-form.png', { fullPage: true });
    await audit('the new-tournament form');
    await page.getByRole('button', { name: 'Create the tournament' }).click();
    await page.waitForURL(/\/tournaments\/[0-9a-f-]+$/);
    knockoutURL = page.url();
    await page.getByRole('heading', { name: 'E2E Knockout', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Organizer tools' }).waitFor();
  });

  await test('manage entries: register, remove, add four seeded bots', async () => {
    const rows = page.locator('table.entries tbody tr');
    await page.getByRole('button', { name: 'Register me' }).click();
    await page.locator('table.entries tbody tr', { hasText: username }).waitFor();
    await page.getByRole('button', { name: `Remove ${username}` }).click();
    await page.locator('table.entries tbody tr', { hasText: username }).waitFor({ state: 'detached' });
    // Greedy bots seeded 1 and 2 meet random ones in the semifinals: every
    // game is between two bot accounts, so the rated games move ratings.
    const bots = [['greedy', 'Greedy One'], ['greedy', 'Greedy Two'], ['random', 'Random Three'], ['random', 'Random Four']];
    for (let i = 0; i < bots.length; i++) {
      await page.getByLabel('Player', { exact: true }).selectOption(`bot:${bots[i][0]}`);
      await page.getByLabel('Entry name (optional)').fill(bots[i][1]);
      await page.getByLabel('Seed', { exact: true }).fill(String(i + 1));
      await page.getByRole('button', { name: 'Add entry' }).click();
      await page.locator('table.entries tbody tr', { hasText: bots[i][1] }).waitFor();
    }
    assert((await rows.count()) === 4, `${await rows.count()} entries`);
  });

  await test('schedule the rounds a few seconds apart with the date-time pickers', async () => {
    const local = (ms) =>
      page.evaluate((ms) => {
        const d = new Date(Date.now() + ms);
        const p = (n) => String(n).padStart(2, '0');
        // Chromium keeps a datetime-local value of whole minutes as HH:MM, and
        // Playwright refuses a fill whose value the input changed ("Malformed value")
        const seconds = d.getSeconds() ? `:${p(d.getSeconds())}` : '';
        return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}${seconds}`;
      }, ms);
    await page.getByLabel('Several rounds at a fixed interval').check();
    await page.getByLabel('First round starts').fill(await local(4000));
    await page.getByLabel('Rounds', { exact: true }).fill('2');
    await page.getByLabel('Every', { exact: true }).fill('3');
    await page.getByLabel('Interval unit').selectOption('seconds');
    await page.getByLabel('Deadline after the start').fill('3');
    await page.getByLabel('Deadline unit').selectOption('minutes');
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    await page.getByText('Scheduled 2 rounds').waitFor();
    await page.locator('tr[data-round="2"][data-status="scheduled"]').waitFor();
    // At a phone the entries and the schedule fit the screen, a row's cells on lines of their own: the
    // entries table scrolled sideways at 360 px (432 px in 310, the status and "Remove" out of sight),
    // and the schedule at 390 (402 in 340) with each start's date broken over four or five lines.
    for (const width of [390, 360]) {
      await page.setViewportSize({ width, height: 800 });
      const fit = await page.evaluate(() => {
        const wraps = [...document.querySelectorAll('.table-wrap[aria-label=Entries], .table-wrap[aria-label=Schedule]')];
        const over = wraps.filter((w) => w.scrollWidth > w.clientWidth + 1).map((w) => `${w.getAttribute('aria-label')} ${w.scrollWidth} px in ${w.clientWidth}`);
        const tall = [...document.querySelectorAll('.table-wrap[aria-label=Schedule] tbody td:nth-child(2)')]
          .filter((td) => {
            const cs = getComputedStyle(td);
            return td.getBoundingClientRect().height > 2.2 * (parseFloat(cs.lineHeight) || 1.25 * parseFloat(cs.fontSize));
          })
          .map((td) => `"${td.textContent}" ${Math.round(td.getBoundingClientRect().height)} px tall`);
        const hidden = [...document.querySelectorAll('table.entries button')].filter((b) => b.getBoundingClientRect().right > document.documentElement.clientWidth).length;
        return { over, tall, wraps: wraps.length, hidden };
      });
      assert(fit.wraps === 2 && fit.over.length === 0 && fit.tall.length === 0 && fit.hidden === 0, `at ${width} px: ${JSON.stringify(fit)}`);
    }
    await shot('tournament-entries-phone.png', { fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await audit('a knockout in registration (entries, organizer tools)');
    const ics = await (await fetch(knockoutURL.replace('/tournaments/', '/api/v1/tournaments/') + '/calendar.ics')).text();
    assert((ics.match(/BEGIN:VEVENT/g) || []).length === 2, `calendar.ics: ${ics}`);
  });

  await test('the bracket fills in until a champion is shown', async () => {
    // The page polls: round 1 starts by itself, then the final.
    await page.locator('.tournament-head[data-status=running]').waitFor({ timeout: 20_000 });
    await page.locator('.match-box[data-match="M1-1"] .slot.known').first().waitFor();
    await shot('bracket-live.png', { fullPage: true });
    // The final waiting for its entries is drawn unlike a semi-final in play, by more than colour
    // (a waiting match's border was the same as a finished one's, and an active one's differed in colour).
    const borders = await page.evaluate(() =>
      Object.fromEntries([...document.querySelectorAll('.match-box')].map((b) => [b.dataset.state, `${getComputedStyle(b).borderTopWidth} ${getComputedStyle(b).borderTopStyle}`])),
    );
    if (borders.pending && borders.ready) assert(borders.pending !== borders.ready, `a waiting and a ready match look alike but for colour: ${JSON.stringify(borders)}`);
    // A long name or title stays inside its match box, the state beside the title: a copy of a box, in
    // the same place, given long texts (they once ran past the box's edge, cut off with no ellipsis, and
    // "Winner of Winners R1 #2" or a header's "waiting" were cut in half).
    const spill = await page.evaluate(() => {
      const box = document.querySelector('.match-box[data-match="M2-1"]');
      const copy = box.cloneNode(true);
      copy.removeAttribute('data-match');
      box.parentElement.appendChild(copy);
      copy.querySelector('.match-title').textContent = 'Winners final of the spring cup';
      for (const n of copy.querySelectorAll('.slots .name')) n.textContent = 'Winner of Winners round 1, match 2';
      const edge = copy.getBoundingClientRect().right - 1;
      const out = [...copy.querySelectorAll('.match-title, .match-state, .slots .name')]
        .filter((el) => el.getBoundingClientRect().right > edge + 0.5)
        .map((el) => `${el.className} ends ${Math.round(el.getBoundingClientRect().right - edge)} px past the box`);
      copy.remove();
      return out;
    });
    assert(spill.length === 0, `texts spill out of a match box: ${spill.join('; ')}`);
    await page.locator('.champion-banner').waitFor({ timeout: 90_000 });
    await page.locator('.tournament-head[data-status=finished]').waitFor();
    const champion = (await page.locator('.champion-banner strong').textContent()).trim();
    const finalWinner = (await page.locator('.match-box[data-match="M2-1"] .slot.champion .name').textContent()).trim();
    assert(champion === finalWinner, `banner ${champion}, final ${finalWinner}`);
    const first = (await page.locator('table.standings tbody tr').first().locator('th').textContent()).trim();
    assert(first === champion, `standings start with ${first}, not the champion ${champion}`);
    assert((await page.locator('svg.connectors path').count()) === 2, 'the connectors are missing');
    const boxes = await page.locator('.match-box[data-state=done]').count();
    assert(boxes === 3, `${boxes} finished matches`);
    const over = await page.evaluate(() => {
      const cs = getComputedStyle(document.querySelector('.match-box[data-state=done]'));
      return `${cs.borderTopWidth} ${cs.borderTopStyle}`;
    });
    if (borders.pending) assert(over !== borders.pending, `a finished and a waiting match look alike: ${over}`);
    if (borders.ready) assert(over !== borders.ready, `a finished and a ready match look alike: ${over}`);
    await page.locator('section:has(#drawing-title)').screenshot({ path: join(artifacts, 'bracket.png') });
    await shot('tournament.png', { fullPage: true });
    await audit('a finished knockout (bracket, standings)');
    const csv = await (await fetch(knockoutURL.replace('/tournaments/', '/api/v1/tournaments/') + '/standings.csv')).text();
    assert(csv.startsWith('rank,entry,') && csv.includes(champion), `standings.csv: ${csv.slice(0, 200)}`);
    await page.setViewportSize({ width: 390, height: 844 });
    // The bracket scrolls sideways in its own region; the page does not.
    const wide = await page.evaluate(() => {
      const W = document.documentElement.clientWidth;
      const out = [...document.querySelectorAll('body *')]
        .filter((el) => el.getBoundingClientRect().right > W + 0.5 && !el.parentElement?.closest('.table-wrap, .bracket-scroll'))
        .map((el) => `${el.tagName.toLowerCase()}.${el.className}:${Math.round(el.getBoundingClientRect().right)}`);
      const over = [...document.querySelectorAll('body *')]
        .filter((el) => el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX === 'visible')
        .map((el) => `${el.tagName.toLowerCase()}.${el.className} ${el.scrollWidth}>${el.clientWidth}`);
      return { sw: document.documentElement.scrollWidth, W, out: [...out.slice(0, 5), ...over.slice(0, 8)] };
    });
    assert(wide.sw <= wide.W, `the page is ${wide.sw} px wide on a ${wide.W} px phone: ${wide.out.join(', ')}`);
    await page.evaluate(() => document.getElementById('drawing-title').scrollIntoView({ block: 'start' }));
    await shot('tournament-phone.png');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  await test('a match links to its game', async () => {
    await page.locator('.match-box[data-match="M2-1"] a.game-link').first().click();
    await page.waitForURL(/\/games\/[0-9a-f-]+\/replay$/);
    await page.locator('.replay-controls .ply').waitFor();
    await page.goBack();
    await page.getByRole('heading', { name: 'E2E Knockout', level: 1 }).waitFor();
  });

  await test('the season lists the tournament; closing it freezes the table', async () => {
    await page.locator('.crumbs').getByRole('link', { name: 'Spring', exact: true }).click();
    await page.getByRole('heading', { name: /Spring/, level: 1 }).waitFor();
    await page.locator('.tournament-list li', { hasText: 'E2E Knockout' }).waitFor();
    // Season tables count people; this knockout had only bots (the table
    // itself is unit-tested).
    await page.getByText('No player has placement points yet').waitFor();
    await page.getByRole('button', { name: 'Close the season…' }).click();
    await page.getByRole('button', { name: 'Close it and freeze the table' }).click();
    await page.locator('.tag.frozen').waitFor();
    await shot('season.png', { fullPage: true });
    await audit('a season (closed)');
  });

  await test('home: my next rounds, my clubs, and the lobby of my club', async () => {
    // A second tournament, with me in it and round 1 tomorrow evening.
    await page.goto(clubURL);
    await page.getByRole('link', { name: 'New tournament' }).click();
    await page.getByLabel('Name', { exact: true }).fill('E2E Swiss');
    await page.getByLabel('Format', { exact: true }).selectOption('swiss');
    await page.getByRole('button', { name: 'Create the tournament' }).click();
    await page.getByRole('heading', { name: 'E2E Swiss', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Register me' }).click();
    await page.getByText(`You are entered as ${username}`).waitFor();
    const tomorrow = await page.evaluate(() => {
      const d = new Date(Date.now() + 86_400_000);
      const p = (n) => String(n).padStart(2, '0');
      return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T19:30`;
    });
    await page.getByLabel('One round').check();
    await page.getByLabel('Starts', { exact: true }).fill(tomorrow);
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    await page.getByText('Scheduled 1 round').waitFor();
    await audit('a Swiss tournament (rounds)');
    await page.getByRole('link', { name: 'Home', exact: true }).click();
    const next = page.locator('.next-rounds li', { hasText: 'E2E Swiss' });
    await next.waitFor();
    assert(/round 1/.test(await next.textContent()), `my next round: ${await next.textContent()}`);
    await page.locator('section[aria-labelledby=my-clubs] li', { hasText: clubName }).waitFor();
    assert(/owner/.test(await page.locator('section[aria-labelledby=my-clubs] li', { hasText: clubName }).textContent()), 'my role in my club');
    await audit('home (games, next rounds, clubs, the new-game form)');
    await shot('home.png', { fullPage: true });
    // The lobby's Club choice: my club's tables alone (mine against bots are being played), kept in the address.
    const clubChoice = page.locator('#lobby-club');
    const asked = page.waitForResponse((r) => /\/api\/v1\/games\?status=active&club=[0-9a-f-]{36}&/.test(r.url()));
    await clubChoice.selectOption({ label: clubName });
    assert((await asked).status() === 200, `the lobby of my club answered ${(await asked).status()}`);
    await page.waitForFunction(() => new URLSearchParams(location.search).has('club'));
    const watching = page.locator('section.lobby .game-list li');
    await watching.first().waitFor();
    assert((await page.locator('section.lobby [role=alert]').count()) === 0, `the lobby of my club: ${await page.locator('section.lobby').textContent()}`);
    assert((await watching.filter({ hasText: username }).count()) === (await watching.count()), 'the lobby of my club lists a table I did not make');
    await clubChoice.selectOption({ label: 'All tables' });
    await page.waitForFunction(() => !new URLSearchParams(location.search).has('club'));
  });

  await test('an organizer cancels a tournament; it leaves my next rounds', async () => {
    await page.locator('.next-rounds li a', { hasText: 'E2E Swiss' }).click();
    await page.getByRole('heading', { name: 'E2E Swiss', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Cancel tournament…' }).click();
    await page.getByRole('group', { name: 'Cancel E2E Swiss? It cannot be undone' }).waitFor();
    await page.getByRole('button', { name: 'Cancel the tournament' }).click();
    await page.locator('.tournament-head[data-status=cancelled]').waitFor();
    await page.locator('.cancelled-note').waitFor();
    assert((await page.locator('.organizer').count()) === 0, 'organizer tools on a cancelled tournament');
    assert((await page.locator('tr[data-round="1"]').getAttribute('data-status')) === 'cancelled', 'round 1 not marked cancelled');
    const ics = await page.evaluate(async (href) => (await fetch(href)).text(), await page.getByRole('link', { name: /calendar/ }).getAttribute('href'));
    assert(/STATUS:CANCELLED/.test(ics), `calendar of the cancelled tournament: ${ics}`);
    await audit('a cancelled tournament');
    await page.getByRole('link', { name: 'Home', exact: true }).click();
    await page.locator('section[aria-labelledby=my-rounds] .next-rounds, section[aria-labelledby=my-rounds] p.muted').first().waitFor();
    assert((await page.locator('.next-rounds li', { hasText: 'E2E Swiss' }).count()) === 0, 'the cancelled tournament is still in my next rounds');
  });

  await test('the leaderboard: pages, provisional players, a club, a rating chart', async () => {
    // Forty more players with established ratings, eight of them in the club.
    const names = ['Ada', 'Basil', 'Cleo', 'Dario', 'Edith', 'Farid', 'Greta', 'Hugo', 'Ines', 'Jonas', 'Kira', 'Lars', 'Mila', 'Nico', 'Olga', 'Pavel',
      'Quinn', 'Rosa', 'Sami', 'Tess', 'Ugo', 'Vera', 'Wim', 'Xena', 'Yann', 'Zoe', 'Amos', 'Bea', 'Cyril', 'Dora', 'Emil', 'Fleur', 'Gil', 'Hana', 'Ivo',
      'Jade', 'Kai', 'Lena', 'Milo', 'Nora']; // the database is this run's own
    const rows = names.map((n, i) => {
      const r = i === 6 ? 1500 + ((5 * 137) % 520) - 260 : 1500 + ((i * 137) % 520) - 260; // players 5 and 6 tie
      const games = i % 5 === 4 ? 10 + i : 30 + ((i * 13) % 150);
      return `('${n}', ${r.toFixed(1)}, ${games})`;
    });
    const sql = `INSERT INTO users (username, kind) SELECT v.n, 'human' FROM (VALUES ${rows.join(',')}) v(n, r, g);
      INSERT INTO ratings (user_id, pool, rating, games, peak) SELECT u.id, 'sequence-2team', v.r, v.g, v.r + 20 FROM (VALUES ${rows.join(',')}) v(n, r, g) JOIN users u ON u.username = v.n;
      INSERT INTO club_members (club_id, user_id, role) SELECT c.id, u.id, 'member' FROM clubs c JOIN users u ON u.username IN (${names.slice(0, 8).map((n) => `'${n}'`).join(',')}) WHERE c.name = '${clubName}';`;
    const ins = psqlDB(dbName, sql);
    assert(ins.ok, ins.out);
    await page.getByRole('link', { name: 'Leaderboards', exact: true }).click();
    await page.getByRole('heading', { name: 'Leaderboards' }).waitFor();
    const ranks = () => page.locator('table.leaderboard tbody tr').evaluateAll((trs) => trs.map((t) => Number(t.getAttribute('data-rank'))));
    await page.locator('table.leaderboard tbody tr').first().waitFor();
    const p1 = await ranks();
    assert(p1.length === 25 && p1[0] === 1, `page 1 ranks ${p1}`);
    assert(p1.some((r, i) => i > 0 && r === p1[i - 1]), `no shared rank on page 1: ${p1}`);
    await page.getByRole('button', { name: 'Next page →' }).click();
    await page.getByText(/page 2, ranks 2\d–/).waitFor();
    const p2 = await ranks();
    assert(p2.length > 0 && p2[0] >= p1[24], `page 2 ranks ${p2} after ${p1[24]}`);
    assert(await page.getByRole('button', { name: 'Next page →' }).isDisabled(), 'a third page');
    await page.getByRole('button', { name: '← Previous page' }).click();
    await page.getByText(/page 1, ranks 1–/).waitFor();
    await page.getByLabel('Show provisional players').check();
    await page.waitForURL(/provisional=1/);
    await page.locator('table.leaderboard td', { hasText: '?' }).first().waitFor();
    const bot = page.locator('table.leaderboard tbody tr', { hasText: 'bot-greedy' });
    await bot.waitFor();
    assert(/\?/.test(await bot.locator('td.strong').textContent()), 'bot-greedy is not shown as provisional');
    await shot('leaderboard.png', { fullPage: true });
    // At a 360 px phone the board fits its region, a 24-character name (one word) too: its five columns
    // took 361 px of 344, "Peak" cut at the edge.
    await page.setViewportSize({ width: 360, height: 740 });
    try {
      const fit = await page.evaluate(() => {
        const wrap = document.querySelector('.table-wrap[aria-label=Leaderboard]');
        const before = `${wrap.scrollWidth} px in ${wrap.clientWidth}`;
        const name = wrap.querySelector('tbody th a');
        const was = name.textContent;
        name.textContent = 'W'.repeat(24);
        const long = `${wrap.scrollWidth} px in ${wrap.clientWidth}`;
        const ok = wrap.scrollWidth <= wrap.clientWidth + 1;
        name.textContent = was;
        return { ok: ok && wrap.scrollWidth <= wrap.clientWidth + 1, before, long };
      });
      assert(fit.ok, `at 360 px the leaderboard scrolls sideways: ${fit.before}; with a 24-character name ${fit.long}`);
      // a short hyphenated name stays on one line: "bot-random" broke at its hyphen (101 px for its 106)
      const lines = await page.evaluate(() => {
        const name = document.querySelector('table.leaderboard tbody th a');
        const was = name.textContent;
        name.textContent = 'bot-random';
        const n = name.getClientRects().length;
        name.textContent = was;
        return n;
      });
      assert(lines === 1, `at 360 px "bot-random" takes ${lines} lines on the leaderboard`);
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
    await audit('the leaderboard');
    await page.getByLabel('Club', { exact: true }).selectOption({ label: clubName });
    await page.waitForURL(/club=/);
    await page.waitForFunction(() => document.querySelectorAll('table.leaderboard tbody tr').length === 8);
    await page.getByLabel('Club', { exact: true }).selectOption('');
    await bot.locator('a').click();
    await page.getByRole('heading', { name: 'bot-greedy' }).waitFor();
    const chart = page.locator('#ratings .chart svg[role=img]').first();
    await chart.waitFor();
    assert(Number(await chart.getAttribute('data-points')) >= 3, 'the rating chart has fewer than two games');
    assert(/from 1500 to/.test(await chart.getAttribute('aria-label')), await chart.getAttribute('aria-label'));
    // The pool's record beside the chart: letters to the eye, words to a screen reader, summing to its games.
    const pool = page.locator('#ratings section.pool-ratings', { has: page.locator('.chart') }).first();
    const record = (await pool.locator('.pool-standing [aria-hidden=true]').textContent()).match(/^(\d+) W · (\d+) L · (\d+) D$/);
    assert(record, `the record reads ${await pool.locator('.pool-standing').textContent()}`);
    const games = Number(await pool.locator('.chart svg[role=img]').getAttribute('data-points')) - 1;
    assert(+record[1] + +record[2] + +record[3] === games, `record ${record[0]} over ${games} rated games`);
    assert(/^\d+ wins?, \d+ loss(es)?, \d+ draws?$/.test(await pool.locator('.pool-standing .sr-only').textContent()), 'the record has no words');
    await page.locator('#ratings').screenshot({ path: join(artifacts, 'rating-chart.png') });
    await audit('a profile with a rating chart');
    // A profile's place on the board opens the board around the player (?around=): their row is
    // current and focused, at the rank the profile said, whichever page it is on.
    const ada = psqlDB(dbName, "SELECT id FROM users WHERE username = 'Ada'");
    assert(ada.ok, ada.out);
    await page.goto(`${base}/users/${ada.out.trim()}`);
    const place = page.locator('#ratings .pool-standing a', { hasText: 'on the leaderboard' }).first();
    const placeRank = Number((await place.textContent()).match(/^#(\d+) on the leaderboard$/)?.[1]);
    await place.click();
    await page.waitForURL(/\/leaderboards\/sequence-2team\?around=/);
    const current = page.locator('table.leaderboard tbody tr[aria-current="true"]');
    await current.waitFor();
    assert(/Ada/.test(await current.textContent()), `the current row: ${await current.textContent()}`);
    assert(Number(await current.getAttribute('data-rank')) === placeRank, `Ada at #${await current.getAttribute('data-rank')}, the profile said #${placeRank}`);
    assert(await current.evaluate((el) => el === document.activeElement), "Ada's row is not focused");
    await page.getByText(/around the player, ranks \d+–\d+/).waitFor();
  });

  await test('club management: the owner makes a member an organizer', async () => {
    // A member of this run's own club, put there directly (joining by
    // invite is another session's business).
    const ins = psqlDB(dbName, `INSERT INTO users (username, kind) VALUES ('Orla', 'human');
      INSERT INTO club_members (club_id, user_id, role) SELECT c.id, u.id, 'member' FROM clubs c, users u WHERE c.name = '${clubName}' AND u.username = 'Orla';`);
    assert(ins.ok, ins.out);
    await page.goto(clubURL);
    await page.getByRole('heading', { name: clubName, level: 1 }).waitFor();
    await page.locator('#owner-note').waitFor();
    const orla = page.locator('.member-list li[data-user="Orla"]');
    await orla.waitFor();
    assert((await orla.getAttribute('data-role')) === 'member', `Orla is ${await orla.getAttribute('data-role')}`);
    await page.getByRole('button', { name: 'Make organizer: Orla' }).click();
    await page.locator('.member-list li[data-user="Orla"][data-role="organizer"] .tag', { hasText: 'organizer' }).waitFor();
    await page.getByRole('button', { name: 'Make member: Orla' }).waitFor();
    await page.locator('section:has(#members-title)').screenshot({ path: join(artifacts, 'club-members.png') });
    await audit('club management (an organizer named)');
    // The server kept it.
    await page.reload();
    await page.locator('.member-list li[data-user="Orla"][data-role="organizer"]').waitFor();
  });

  await test('long unbroken names wrap: no page is wider than a 390 px phone (or 1280 px)', async () => {
    // a 64-letter club, an 80-letter league and a 100-letter tournament, none with a space in it
    const longClub = ('Long' + suffix.replace(/[^A-Za-z0-9]/g, '') + 'Club'.repeat(16)).slice(0, 64);
    const longLeague = 'League'.repeat(14).slice(0, 80);
    const longTournament = 'Tournament'.repeat(10);
    await page.goto(base + '/clubs');
    await page.getByLabel('Name').fill(longClub);
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: longClub, level: 1 }).waitFor();
    const longClubURL = page.url();
    await page.getByLabel('League name').fill(longLeague);
    await page.getByRole('button', { name: 'Create league' }).click();
    await page.getByRole('link', { name: longLeague }).click();
    await page.getByRole('heading', { name: longLeague, level: 1 }).waitFor();
    const longLeagueURL = page.url();
    await page.goto(longClubURL);
    await page.getByRole('link', { name: 'New tournament' }).click();
    await page.getByLabel('Name', { exact: true }).fill(longTournament);
    await page.getByRole('button', { name: 'Create the tournament' }).click();
    await page.getByRole('heading', { name: longTournament, level: 1 }).waitFor();
    const longTournamentURL = page.url();
    const wide = () =>
      page.evaluate(() => {
        const W = document.documentElement.clientWidth;
        const out = [...document.querySelectorAll('main *')]
          .filter((el) => el.getBoundingClientRect().right > W + 0.5 && !el.closest('.table-wrap, .bracket-scroll'))
          .map((el) => `${el.tagName.toLowerCase()}:${Math.round(el.getBoundingClientRect().right)}`);
        return { sw: document.documentElement.scrollWidth, W, out: out.slice(0, 4) };
      });
    for (const [w, h] of [[390, 844], [1280, 900]]) {
      await page.setViewportSize({ width: w, height: h });
      for (const [name, url] of [['the club', longClubURL], ['the league', longLeagueURL], ['the tournament', longTournamentURL], ['home', base + '/'], ['the clubs', base + '/clubs']]) {
        await page.goto(url);
        await page.locator('main h1').waitFor();
        await page.waitForFunction(() => !document.querySelector('main [role=status]')?.textContent?.startsWith('Loading'));
        const r = await wide();
        assert(r.sw <= r.W, `at ${w} px ${name}'s page is ${r.sw} px wide: ${r.out.join(', ')}`);
      }
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  await test('unknown pages and files: SPA fallback, 404 and cache headers', async () => {
    const r1 = await fetch(base + '/no/such/page');
    assert(r1.status === 200 && r1.headers.get('cache-control') === 'no-cache', `page fallback: ${r1.status} ${r1.headers.get('cache-control')}`);
    const html = await r1.text();
    const asset = html.match(/\/assets\/[^"]+\.js/)[0];
    const r2 = await fetch(base + asset);
    assert(r2.status === 200 && /immutable/.test(r2.headers.get('cache-control')), `asset: ${r2.status} ${r2.headers.get('cache-control')}`);
    const r3 = await fetch(base + '/missing.png');
    assert(r3.status === 404, `missing file: ${r3.status}`);
    const r4 = await fetch(base + '/api/v1/nope');
    assert(r4.status === 404 && /problem\+json/.test(r4.headers.get('content-type')), `api 404: ${r4.status}`);
    await page.goto(base + '/no/such/page');
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await audit('page not found');
  });

  await test('change the password from the profile; the old one stops working, the new one signs in', async () => {
    const newPassword = 'a brand new horse battery';
    await page.getByRole('link', { name: 'Profile' }).click();
    await page.getByRole('heading', { name: 'Change password' }).waitFor();
    await audit('my profile');
    await page.getByLabel('Current password').fill(password);
    await page.getByLabel('New password').fill(newPassword);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('status').filter({ hasText: 'Password changed' }).waitFor();
    await page.locator('section:has(#password-title)').screenshot({ path: join(artifacts, 'change-password.png') });
    // This browser stays signed in, through the new refresh cookie.
    await page.reload();
    await page.getByRole('heading', { name: 'Change password' }).waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('banner').getByRole('link', { name: 'Sign in' }).waitFor();
    await audit('home, signed out');
    await page.goto(base + '/signin');
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill(password);
    await audit('sign in');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    assert(!(await page.getByRole('button', { name: 'Sign out' }).isVisible()), 'the old password still signs in');
    await page.getByLabel('Password').fill(newPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
  });

  await test('close an account from its profile; its password stops working', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    const leaving = `${username.slice(0, 18)}_bye`;
    await page.goto(base + '/signup');
    await page.getByLabel('Username').fill(leaving);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: `Hello, ${leaving}` }).waitFor();
    await page.getByRole('link', { name: 'Profile' }).click();
    await page.getByRole('button', { name: 'Close account…' }).click();
    // closing takes the password: a wrong one closes nothing (its 400 in
    // the console is this test's own)
    const errors = pageErrors.length;
    await page.locator('#f-close-current-password').fill('not the password');
    await page.getByRole('button', { name: 'Close my account' }).click();
    await page.locator('#f-close-current-password[aria-invalid=true]').waitFor();
    for (let i = pageErrors.length - 1; i >= errors; i--) if (/status of 400/.test(pageErrors[i])) pageErrors.splice(i, 1);
    await page.locator('#f-close-current-password').fill(password);
    await page.getByRole('button', { name: 'Close my account' }).click();
    await page.getByRole('banner').getByRole('link', { name: 'Sign in' }).waitFor();
    await page.goto(base + '/signin');
    await page.getByLabel('Username').fill(leaving);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    assert(!(await page.getByRole('button', { name: 'Sign out' }).isVisible()), 'a closed account could sign in again');
  });

  await test('quick match: two players asking for the same set-up land at one table', async () => {
    // two more accounts, each in a browser context of its own (the run's
    // one persistent context holds the main account's session)
    const browser = await playwright.chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
    try {
      const players = [];
      for (const who of ['qa', 'qb']) players.push(await signUpApart(browser, who));
      // 5-player Stacks: a set-up no other test makes, and a table that
      // stays open with two seated (nothing is played in the background)
      const urls = [];
      for (const { p } of players) {
        const form = p.locator('form.quick-match');
        await form.getByLabel('Game', { exact: true }).selectOption('stacks');
        await form.getByLabel('Players').selectOption('5');
        await form.getByRole('button', { name: 'Quick match' }).click();
        await p.waitForURL(/\/games\/[0-9a-f-]+$/);
        urls.push(p.url());
      }
      assert(urls[0] === urls[1], `the two quick matches landed at ${urls[0]} and ${urls[1]}`);
      // both pages list both seated, in the order they asked (the first
      // player's page hears of the second through its event stream)
      for (const { p } of players) {
        for (const [i, { name }] of players.entries()) await p.locator(`.open-seats .open-seat[data-seat="${i}"]`, { hasText: name }).waitFor();
      }
    } finally {
      await browser.close();
    }
  });

  await test('a private table with a seat kept for bob: carol neither finds it nor takes the seat; bob joins from Home and it starts', async () => {
    // three more accounts, each in a browser context of its own
    const browser = await playwright.chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
    try {
      const people = {};
      for (const who of ['alice', 'bob', 'carol']) people[who] = await signUpApart(browser, who);
      const { alice, bob, carol } = people;
      // alice: 2-player Sequence, her seat and one kept for bob, private
      const form = alice.p.locator('form.new-game');
      await form.getByLabel('Seat 2').selectOption('kept');
      await form.getByLabel('Kept for (username)').fill(bob.name);
      await form.getByLabel('Private table (only people with the link)').check();
      await form.getByRole('button', { name: 'Start the game' }).click();
      await alice.p.waitForURL(/\/games\/[0-9a-f-]+$/);
      const url = alice.p.url();
      const id = url.split('/').pop();
      await alice.p.locator('.private-note').waitFor();
      await alice.p.locator('.open-seat[data-seat="1"]', { hasText: `kept for ${bob.name}` }).waitFor();
      assert((await alice.p.locator('.share-hint a').getAttribute('href')) === url, 'the link to send is not the game\'s');
      // carol: not in her lobby (which lists a public table of hers), and by the link the seat is not hers
      await carol.p.reload();
      await carol.p.locator('section.lobby h3', { hasText: 'Waiting for players' }).waitFor();
      await carol.p.locator('section.lobby').locator('ul.game-list li, p.muted').first().waitFor();
      assert((await carol.p.locator(`section.lobby a[href="/games/${id}"]`).count()) === 0, 'carol\'s lobby lists the private table');
      await carol.p.goto(url);
      await carol.p.locator('.kept-note', { hasText: `kept for ${bob.name}` }).waitFor();
      assert((await carol.p.getByRole('button', { name: 'Take a seat' }).count()) === 0, 'carol is offered the seat kept for bob');
      // bob: the invitation on Home, Join, and the game starts
      await bob.p.reload();
      const invite = bob.p.locator('ul.invitations li', { hasText: `by ${alice.name}` });
      await invite.waitFor();
      assert(/^Invited: Sequence · 2 players by /.test(await invite.textContent()), `bob's invitation: ${await invite.textContent()}`);
      // the header's count carries it on every page, in words for a screen reader
      await bob.p.locator('#waiting-games', { hasText: 'An invitation to a game' }).waitFor({ state: 'attached' });
      assert((await bob.p.locator('nav .nav-count').textContent()) === '1', `bob's header count: ${await bob.p.locator('nav .nav-count').textContent()}`);
      await invite.getByRole('button', { name: /^Join/ }).click();
      await bob.p.waitForURL(url);
      await bob.p.locator('.sequence-table').waitFor();
      await alice.p.locator('.sequence-table').waitFor(); // alice's page hears the start through its stream
    } finally {
      await browser.close();
    }
  });

  await test("a friend who declines: dora declines eve's table from Home; eve gives the seat to a bot and the game starts", async () => {
    const browser = await playwright.chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
    try {
      const eve = await signUpApart(browser, 'eve');
      const dora = await signUpApart(browser, 'dora');
      const form = eve.p.locator('form.new-game');
      await form.getByLabel('Seat 2').selectOption('kept');
      await form.getByLabel('Kept for (username)').fill(dora.name);
      await form.getByLabel('Private table (only people with the link)').check();
      await form.getByRole('button', { name: 'Start the game' }).click();
      await eve.p.waitForURL(/\/games\/[0-9a-f-]+$/);
      const seat = eve.p.locator('.open-seat[data-seat="1"]');
      await seat.filter({ hasText: `kept for ${dora.name}` }).waitFor();
      // dora: Decline on Home; the invitation and the header's count go
      await dora.p.reload();
      const invite = dora.p.locator('ul.invitations li', { hasText: `by ${eve.name}` });
      await dora.p.locator('nav .nav-count', { hasText: '1' }).waitFor();
      await invite.getByRole('button', { name: /^Decline/ }).click();
      await invite.waitFor({ state: 'detached' });
      await dora.p.locator('nav .nav-count').waitFor({ state: 'detached' });
      // eve's page hears it through its stream: the seat is open to anyone
      await seat.filter({ hasText: /: open/ }).waitFor();
      await eve.p.getByRole('button', { name: 'Change seat 2' }).click();
      await eve.p.getByLabel('Seat 2 goes to').selectOption('greedy');
      await eve.p.getByRole('button', { name: 'Save seat' }).click();
      await eve.p.locator('.sequence-table').waitFor();
    } finally {
      await browser.close();
    }
  });

  await test('axe-core: no WCAG 2.1 A or AA violation on any page audited, nor an item it leaves for review that fails', async () => {
    log(`    (${axeAudits.runs} audits in ${(axeAudits.ms / 1000).toFixed(1)} s; needing review: ${axeReviewed.contrasts} contrasts measured, the lowest ${axeReviewed.lowest.toFixed(2)}:1, and ${axeReviewed.symbolNames} symbol-only labels)`);
    assert(axeAudits.runs > 0, 'no page was audited');
    assert(axeFound.length === 0, axeFound.join('\n    '));
  });

  await test('no page breaks its Content-Security-Policy, and the policy is enforced', async () => {
    assert(cspViolations.length === 0, `policy violations on the pages visited:\n${cspViolations.join('\n')}`);
    const docs = await page.goto(base + '/api/docs');
    assert(/style-src 'sha256-/.test(docs.headers()['content-security-policy']), 'the API docs page has no policy of its own');
    const width = await page.evaluate(() => getComputedStyle(document.body).maxWidth);
    assert(width === '960px', `the docs page's style sheet was refused (body max-width ${width})`);
    const app = await page.goto(base + '/');
    const policy = app.headers()['content-security-policy'] || '';
    assert(policy.includes("script-src 'self'") && policy.includes("frame-ancestors 'none'"), `the app's policy: ${policy}`);
    await page.getByRole('banner').waitFor();
    assert(cspViolations.length === 0, `policy violations:\n${cspViolations.join('\n')}`);
    // The watch hears a violation: an inline script, which the policy refuses.
    const errors = pageErrors.length;
    await page.evaluate(() => document.head.append(Object.assign(document.createElement('script'), { textContent: 'window.__e2eInline = 1' })));
    for (let i = 0; i < 40 && cspViolations.length === 0; i++) await page.waitForTimeout(50);
    assert(/script-src/.test(cspViolations.join()), `an inline script reported no violation: ${cspViolations.join()}`);
    assert(!(await page.evaluate(() => window.__e2eInline)), 'an inline script ran');
    await page.waitForTimeout(100);
    pageErrors.splice(errors, Infinity, ...pageErrors.slice(errors).filter((m) => !/Content Security Policy/.test(m))); // the refusal's console line is this test's own
  });

  await test('no script errors on any page', async () => {
    assert(pageErrors.length === 0, pageErrors.join('\n'));
  });
} catch (e) {
  results.push({ name: 'set-up', ok: false });
  console.error('e2e:', e);
} finally {
  clearTimeout(watchdog);
  await cleanup();
}

const passed = results.filter((r) => r.ok).length;
const failed = results.length - passed;
log(`screenshots and the server log: ${artifacts}`);
log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
