/**
 * The fast tier's property tests and enumerations run a sample by default, so `npm test` stays
 * within two minutes on two cores; `AUTOJOIN_LONG_TESTS=1` (set by `.ci/run`) runs them in full.
 * Mutation testing (stryker.vitest.config.ts sets `AUTOJOIN_MUTATION_RUNS=1`) runs the counts its
 * scores in docs/testing.md were measured with, which may be more than `npm test`'s sample.
 */
export const LONG = Boolean(process.env.AUTOJOIN_LONG_TESTS);

const MUTATION = Boolean(process.env.AUTOJOIN_MUTATION_RUNS);

/** `fast` runs by default, `long` with AUTOJOIN_LONG_TESTS set, `mutation` (default `fast`) under mutation testing. */
export function runs(fast: number, long: number, mutation = fast): number {
  if (LONG) return long;
  return MUTATION ? mutation : fast;
}
