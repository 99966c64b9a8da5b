/**
 * The fast tier runs its files without per-file isolation (`isolate: false` in vitest.config.ts):
 * each worker process runs many files, so node_modules, the module runner and the process are set
 * up once per worker, not once per file (about half the tier's CPU). What a file could leave behind
 * for the next one is undone here, after every file:
 *  - the project's own modules are evaluated afresh for the next file (`vi.resetModules()`), so
 *    module state (the redaction registry, log settings, memos) starts clean and a file's
 *    `vi.mock(...)` of a module (`@actions/core`, `src/git/blobs.js`) reaches the modules it imports;
 *  - environment variables and globals stubbed with `vi.stubEnv` / `vi.stubGlobal`, spies, the
 *    working directory, `process.exitCode`.
 * A file that changes other process state (process.env directly, listeners) restores it itself.
 */
import { afterAll, vi } from 'vitest';

const home = process.cwd();

afterAll(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.resetModules();
  if (process.cwd() !== home) process.chdir(home);
  process.exitCode = undefined;
});
