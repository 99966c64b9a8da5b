/**
 * The fast tier's property tests and enumerations run a sample by default, so `npm test` stays
 * within two minutes on two cores; `AUTOJOIN_LONG_TESTS=1` (set by `.ci/run`) runs them in full.
 */
export const LONG = Boolean(process.env.AUTOJOIN_LONG_TESTS);

/** `fast` runs by default, `long` with AUTOJOIN_LONG_TESTS set. */
export function runs(fast: number, long: number): number {
  return LONG ? long : fast;
}
