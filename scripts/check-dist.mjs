// Fails when the committed dist/action.js differs from a fresh build of src/ (the runner executes the committed file),
// or the committed schema validators (src/generated/) from a fresh compile of schemas/: checked before the
// build, which regenerates them.
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { generateValidators } from './schema-validators.mjs';

for (const [file, text] of generateValidators()) {
  if (readFileSync(file, 'utf8') === text) continue;
  console.error(`${file} is out of date: run \`npm run build\` and commit src/generated/`);
  process.exitCode = 1;
}

const committed = readFileSync('dist/action.js', 'utf8');
execFileSync(process.execPath, ['scripts/build.mjs', 'action'], { stdio: 'inherit' });
const rebuilt = readFileSync('dist/action.js', 'utf8');
if (committed !== rebuilt) {
  console.error('dist/action.js is out of date: run `npm run build` and commit dist/action.js');
  process.exitCode = 1;
} else {
  console.log('dist/action.js matches src/');
}
