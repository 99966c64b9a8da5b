/** One JSON text per value, whatever the order of its object keys: what comparisons and digests hash. */

/** @returns JSON text with object keys sorted at every level, so equal values give equal text. */
export function canonicalJson(value: unknown): string {
  // JSON.stringify(undefined) gives undefined (lib.d.ts says string): spell it as JSON's null.
  return value === undefined ? 'null' : JSON.stringify(sortedKeys(value));
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([key, item]) => [key, sortedKeys(item)]));
}
