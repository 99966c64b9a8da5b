/**
 * Narrows away undefined and null in a test, failing it with a clear message instead of the
 * TypeError a `!` would give further on.
 * @returns `value` when it is neither undefined nor null
 */
export function defined<T>(value: T | null | undefined, what = 'the value'): T {
  if (value === undefined || value === null) throw new Error(`expected ${what} to be defined`);
  return value;
}
