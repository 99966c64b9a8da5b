// Mutation testing of the modules that decide what is written or shown (docs/testing.md):
//   npm run test:mutation                                  every module in MUTATE (long: hours on 2 cores)
//   npm run test:mutation -- --mutate src/history/prune.ts one module (minutes)
//   AUTOJOIN_MUTATE=src/plan/diff.ts,src/plan/merge.ts npm run test:mutation
// Stryker's vitest runner runs the fast tier only (stryker.vitest.config.ts), and for each mutant
// only the tests that cover it. scripts/mutation-changed.mjs runs it over the listed modules the
// last commit touched, with a score floor per module (CI).

/** The modules under mutation testing, by concept (one home each; see docs/ARCHITECTURE.md). */
export const MUTATE = [
  'src/plan/diff.ts', // the plan's diff
  'src/plan/safety.ts', // safety: removal limits, refusals
  'src/plan/ownership.ts', // ownership markers
  'src/plan/three-way.ts', // three-way drift
  'src/plan/drift.ts',
  'src/plan/write-checks.ts', // what a write must check before it is sent
  'src/plan/merge.ts', // merging sharded plans
  'src/plan/shard.ts', // shards
  'src/plan/only-expired.ts', // --only-expired
  'src/plan/saved.ts', // saved plans
  'src/reconcile/saved-plan.ts',
  'src/plan/history-place.ts', // placement of a plan's scopes in this checkout's history (behind, not managed here)
  'src/history/prune.ts', // pruning
  'src/history/behind.ts', // behind
  'src/redact.ts', // redaction
  'src/plan/redacted.ts',
  'src/policy/domains.ts', // domains
  'src/policy/rules.ts', // rules
  'src/service/retry.ts', // retry
  'src/service/pacing.ts', // pacing
  'src/run/place.ts', // placement of a run's files
];

const fromEnv = process.env.AUTOJOIN_MUTATE?.split(',').map((file) => file.trim()).filter(Boolean);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'stryker.vitest.config.ts', related: true },
  mutate: fromEnv && fromEnv.length > 0 ? fromEnv : MUTATE,
  plugins: ['@stryker-mutator/vitest-runner'],
  // Two shared cores: one test process per core at most; `--concurrency 1` when others work too.
  concurrency: 2,
  // Static mutants (a module-level constant) need every test file reloaded per mutant: hours here.
  ignoreStatic: true,
  coverageAnalysis: 'perTest',
  timeoutMS: 60_000,
  // The first run of every covering test, one worker thread: minutes on a shared machine.
  dryRunTimeoutMinutes: 60,
  reporters: ['clear-text', 'progress', 'json', 'html'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
  thresholds: { high: 90, low: 70, break: null },
};
