/**
 * The vitest set-up mutation testing runs (stryker.config.mjs): the fast tier only, without the
 * summary reporter. The e2e tier spawns the built CLI (dist/), which Stryker's mutants never reach,
 * so it could only report them as survivors; it is not run. Stryker asks for worker threads; the
 * project keeps forked processes, as `npm test` does, because some suites chdir
 * (test/support/in-process.ts), which a worker thread cannot.
 */
import { defineConfig } from 'vitest/config';
import { FAST_TIER } from './vitest.config.js';

/**
 * AUTOJOIN_MUTATION_TESTS narrows the tests to these files (comma-separated globs), for a quick
 * look at one module on a busy machine; a score measured so is a lower bound (docs/testing.md).
 */
const only = process.env.AUTOJOIN_MUTATION_TESTS?.split(',').map((glob) => glob.trim()).filter(Boolean);

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'fast',
          ...FAST_TIER,
          ...(only && only.length > 0 ? { include: only } : {}),
          pool: 'forks',
          setupFiles: ['test/support/fast-check-seed.ts'],
          // The property counts the scores were measured with (test/support/long.ts).
          env: { AUTOJOIN_MUTATION_RUNS: '1' },
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
