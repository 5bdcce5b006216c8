// Empties dist/ but keeps its tracked .gitignore, which keeps the folder in
// a fresh clone so that frontend/embed.go always compiles.
import { readdirSync, rmSync, mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
mkdirSync(dist, { recursive: true });
for (const name of readdirSync(dist)) {
  if (name !== '.gitignore') rmSync(join(dist, name), { recursive: true, force: true });
}
