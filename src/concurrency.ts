/**
 * Runs `work` over `items` with at most `concurrency` calls in flight, in item order.
 * Workers pull the next index from a shared cursor, so a slow item never holds up the others.
 * When `signal` is aborted, items not yet started are left out (their result stays undefined).
 */
export async function forEachBounded<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  let cursor = 0;
  const worker = async (): Promise<void> => {
    while (cursor < items.length && !signal?.aborted) {
      const index = cursor++;
      await work(items[index] as T, index);
    }
  };
  const width = Math.max(1, Math.min(Math.floor(concurrency) || 1, items.length));
  await Promise.all(Array.from({ length: width }, worker));
}
