// The initial-JavaScript budget: every script index.html loads, and every
// module those import statically (not the lazy chunks), gzipped, must stay
// under 200 KB. Also writes a .gz beside each asset, which the Go server
// sends to clients that accept gzip.
import { readFileSync, writeFileSync, readdirSync, statSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export const BUDGET = 200 * 1024;
const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');

/** initialScripts lists the JS files loaded before the app first renders. */
export function initialScripts(distDir) {
  const html = readFileSync(join(distDir, 'index.html'), 'utf8');
  const seen = new Set();
  const queue = [];
  for (const m of html.matchAll(/<(?:script|link)[^>]+(?:src|href)="\/(assets\/[^"]+\.js)"/g)) queue.push(m[1]);
  while (queue.length) {
    const file = queue.shift();
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(join(distDir, file), 'utf8');
    // Static imports between chunks: import{...}from"./x.js" or import"./x.js".
    for (const m of code.matchAll(/(?:^|[;\s}])import\s*(?:[\w${},\s*]+from\s*)?["']\.\/([^"']+\.js)["']/g)) {
      queue.push('assets/' + m[1]);
    }
  }
  return [...seen];
}

export function gzipSize(path) {
  return gzipSync(readFileSync(path), { level: 9 }).length;
}

function main() {
  for (const name of readdirSync(join(dist, 'assets'))) {
    const p = join(dist, 'assets', name);
    if (/\.(js|css|svg|json)$/.test(name) && statSync(p).size > 1024) {
      writeFileSync(p + '.gz', gzipSync(readFileSync(p), { level: 9 }));
    }
  }
  const files = initialScripts(dist);
  let total = 0;
  for (const f of files) {
    const size = gzipSize(join(dist, f));
    total += size;
    console.log(`  ${f}  ${(size / 1024).toFixed(1)} KB gzipped`);
  }
  const line = `initial JavaScript: ${(total / 1024).toFixed(1)} KB gzipped (budget ${BUDGET / 1024} KB) in ${files.length} file(s)`;
  if (files.length === 0) {
    console.error('check-size: index.html loads no script; is the build broken?');
    process.exit(1);
  }
  if (total > BUDGET) {
    console.error('FAIL ' + line);
    process.exit(1);
  }
  console.log(line);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
