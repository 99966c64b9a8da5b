import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Two tiers (README "Tests"):
 *  - fast: every `*.test.ts` that runs in-process (functions, the command layer, real git
 *    repositories in temp dirs, the emulator over loopback HTTP). `npm test`. Needs no dist/.
 *  - e2e: every `*.e2e.test.ts`, which spawns the built CLI, the action bundle or another Node
 *    process, packs the tarball or kills processes. `npm run test:e2e`. Its global setup rebuilds dist/ first.
 * `npx vitest run FILE` picks the file's tier by its name; dist/ is rebuilt only when an e2e file runs.
 */
const E2E = 'test/**/*.e2e.test.ts';
/** The fast tier's files; also the only tests mutation testing runs (stryker.vitest.config.ts). */
export const FAST_TIER = { include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, E2E] };

export default defineConfig({
  test: {
    setupFiles: ['test/support/fast-check-seed.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Spawned CLIs and loopback servers are cheap but not free; two cores is the CI machine.
    pool: 'forks',
    // One worker per core, and at least two. Vitest's default (cores - 1) is one worker on a
    // two-core machine: most files wait on git, loopback HTTP or child processes, not the CPU, so a
    // second worker fills the idle time. Measured on 2 shared cores: 1 worker 152-162 s, 2 workers
    // 79 s (docs/testing.md). VITEST_MAX_WORKERS or --maxWorkers still override it.
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      // One process per worker for all its files (test/support/file-isolation.ts undoes what a file leaves behind).
      { extends: true, test: { name: 'fast', ...FAST_TIER, isolate: false, setupFiles: ['test/support/fast-check-seed.ts', 'test/support/file-isolation.ts'] } },
      { extends: true, test: { name: 'e2e', include: [E2E], globalSetup: ['test/support/global-setup.ts'] } },
    ],
  },
});
