/** Ids the emulator hands out: a prefix and a counter kept in the data, so they stay unique across restarts. */
export function formatId(prefix: 'inv' | 'ajd' | 'grp' | 'acc', n: number): string {
  return `${prefix}_${String(n).padStart(6, '0')}`;
}
