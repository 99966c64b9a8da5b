/** How many items of a body fit its budget: the searches the formats (formats.ts) share. */

/** The most scopes `fits` accepts (it is monotonic in the count): a binary search. */
export function mostThatFit(total: number, fits: (count: number) => boolean): number {
  if (fits(total)) return total;
  let low = 0;
  let high = total; // fits(low) is assumed, fits(high) is false
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (fits(middle)) low = middle;
    else high = middle;
  }
  return low;
}

/** `items` rendered by `render` while their serialized sizes, summed, stay within `budget` bytes, and one more: an upper bound of what fits. */
export function prefixWithin<T, R>(items: readonly T[], render: (item: T) => R, budget: number): R[] {
  const rendered: R[] = [];
  let size = 0;
  for (const item of items) {
    const one = render(item);
    rendered.push(one);
    size += Buffer.byteLength(JSON.stringify(one), 'utf8');
    if (size > budget) break;
  }
  return rendered;
}
