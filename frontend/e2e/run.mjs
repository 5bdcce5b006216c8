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
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, createWriteStream } from 'node:fs';
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
function assert(cond, msg) {
  if (!cond) throw new Error(msg);
}
const shot = (name, opts = {}) => page.screenshot({ path: join(artifacts, name), ...opts });

let page = null;
const username = `e2e_${suffix}`.slice(0, 24).replace(/[^A-Za-z0-9_-]/g, '_');
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

  await test('sign up', async () => {
    await page.goto(base + '/signup');
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill(password);
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
    await page.getByLabel('Game', { exact: true }).selectOption('sequence');
    await page.getByLabel('Players').selectOption('2');
    await page.getByLabel(/^Seat 2/).selectOption('random');
    await page.getByRole('button', { name: 'Start the game' }).click();
    await page.waitForURL(/\/games\/[0-9a-f-]+$/);
    gameURL = page.url();
    await page.locator('[role=grid] [role=gridcell]').first().waitFor();
    const cells = await page.locator('[role=gridcell]').count();
    assert(cells === 100, `the board has ${cells} cells`);
    await page.locator('.game[data-my-turn=true]').waitFor();
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
        const focusCell = page.locator('[role=gridcell][tabindex="0"]');
        assert(await focusCell.evaluate((el) => el.classList.contains('target')), 'the keyboard focus is not on a legal target');
        const cell = await focusCell.getAttribute('data-cell');
        await focusCell.focus();
        // Away and back with the arrow keys, then Enter plays there.
        const [away, back] = cell.endsWith('10') ? ['ArrowUp', 'ArrowDown'] : ['ArrowDown', 'ArrowUp'];
        await page.keyboard.press(away);
        await page.keyboard.press(back);
        const now = await page.evaluate(() => document.activeElement?.getAttribute('data-cell'));
        assert(now === cell, `the arrow keys left the focus on ${now}, want ${cell}`);
        await page.keyboard.press('Enter');
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
    log(`    (${moves} moves by the page; ${await page.locator('.result').textContent()})`);
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
    await page.getByRole('heading', { name: 'My games' }).waitFor();
    await page.locator('.game-list li').first().waitFor();
    const tag = await page.locator('.game-list .tag').first().textContent();
    assert(['won', 'lost', 'draw'].includes(tag.trim()), `the game's tag is ${tag}`);
    await shot('home.png', { fullPage: true });
  });

  await test('a Stacks table: piles, hand and a played turn', async () => {
    await page.getByLabel('Game', { exact: true }).selectOption('stacks');
    await page.getByLabel(/^Seat 2/).selectOption('random');
    await page.getByRole('button', { name: 'Start the game' }).click();
    await page.waitForURL(/\/games\/[0-9a-f-]+$/);
    await page.locator('.game[data-game=stacks][data-my-turn=true]').waitFor();
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

  await test('clubs: create one, make an invite code', async () => {
    await page.getByRole('link', { name: 'Clubs' }).click();
    await page.getByRole('heading', { name: 'Create a club' }).waitFor();
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
