// Writes src/confusables.json: the entries of Unicode's confusables.txt (v13.0.0, as the
// unhomoglyph package ships it in data.json) whose prototype is plain ASCII. The homograph checks
// only compare skeletons with ASCII names, so the other ~4,500 entries (80 kB) would only weigh
// on the bundle; test/hardening/inert-text.e2e.test.ts checks the file is up to date.
// Usage: node scripts/confusables.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const data = JSON.parse(readFileSync(require.resolve('unhomoglyph/data.json'), 'utf8'));

/** @returns the table as written to src/confusables.json. */
function asciiConfusables(table) {
  const entries = Object.entries(table).filter(([, prototype]) => /^[\x20-\x7e]+$/u.test(prototype));
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${JSON.stringify(Object.fromEntries(entries), null, 0)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(fileURLToPath(new globalThis.URL('../src/confusables.json', import.meta.url)), asciiConfusables(data));
}
