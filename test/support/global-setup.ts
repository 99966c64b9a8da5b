/**
 * vitest globalSetup: builds dist/ from src/ once before any test file runs, so no test spawns a
 * stale CLI or action bundle, whether run through `npm test` or as `npx vitest run FILE`.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
}
