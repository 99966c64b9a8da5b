/**
 * Sorting the many tiny arrays a plan sorts per scope (a scope's domains, an object's keys).
 * V8's Array.prototype.sort allocates its sort state (about 1 KB) on every call, whatever the
 * length: a plan of 2,000 scopes sorted some 20,000 arrays of two to five items, 20 MB of garbage.
 * A short array is sorted here by insertion instead, with no allocation; like the built-in sort it
 * is stable, so the order is the same for any comparator.
 */

/** Longest array sorted by insertion; longer ones go to the built-in sort. */
const INSERTION_MAX = 16;

/** Sorts `items` in place, as `items.sort(compare)` does. @returns `items` */
export function sortInPlace<T>(items: T[], compare: (a: T, b: T) => number): T[] {
  if (items.length > INSERTION_MAX) return items.sort(compare);
  for (let i = 1; i < items.length; i++) {
    const item = items[i] as T;
    let j = i - 1;
    while (j >= 0 && compare(items[j] as T, item) > 0) {
      items[j + 1] = items[j] as T;
      j -= 1;
    }
    items[j + 1] = item;
  }
  return items;
}
