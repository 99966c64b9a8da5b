// Fails when the committed dist/action.js differs from a fresh build of src/ (the runner executes the committed file).
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const committed = readFileSync('dist/action.js', 'utf8');
execFileSync(process.execPath, ['scripts/build.mjs', 'action'], { stdio: 'inherit' });
const rebuilt = readFileSync('dist/action.js', 'utf8');
if (committed !== rebuilt) {
  console.error('dist/action.js is out of date: run `npm run build` and commit dist/action.js');
  process.exitCode = 1;
} else {
  console.log('dist/action.js matches src/');
}
