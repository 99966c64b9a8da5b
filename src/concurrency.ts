/**
 * The one bounded pool: every read and write of the service (src/service/state.ts,
 * src/apply/apply.ts) and the other bounded work (git blame) runs through it. For the service its
 * width is the client's AIMD window (`ServiceClient.inFlightLimit`, src/service/pacing.ts), read
 * again before each start, so the window is the only limit on requests in flight: a task sends
 * one request at a time, and the pool starts no task while the window is full.
 *
 * Items are pulled from the source only when a place is free, so a source that produces them
 * lazily (policy files loading) holds none waiting. When the consumer stops, the source throws
 * or a task throws, nothing more starts, the tasks in flight are aborted (their `signal`) and
 * awaited, and then the pool ends (rethrowing the first error).
 */

/** How many tasks may run now: a number, or a function read before each start (a moving window). */
export type Width = number | (() => number);

/** One finished task: the item it was started for and what it gave. */
export interface Finished<T, R> {
  item: T;
  result: R;
}

interface Settled<T, R> {
  task: Promise<unknown>;
  done: Finished<T, R>;
}
type Running<T, R> = Promise<Settled<T, R>>;
interface Pulled<T> {
  pulled: IteratorResult<T>;
}

/**
 * Runs `work` over the items of `source`, at most `width` at a time, yielding each as it finishes
 * (in completion order).
 * @param signal when aborted, nothing more starts and the pool ends once the tasks in flight stopped
 */
export async function* mapBounded<T, R>(
  source: AsyncIterable<T> | Iterable<T>,
  width: Width,
  work: (item: T, signal: AbortSignal) => Promise<R>,
  signal?: AbortSignal,
): AsyncGenerator<Finished<T, R>, void, undefined> {
  const items = Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : source[Symbol.iterator]();
  const abort = new AbortController();
  const stop = (): void => abort.abort();
  signal?.addEventListener('abort', stop, { once: true });
  const running = new Set<Running<T, R>>();
  const limit = typeof width === 'number' ? () => width : width;
  // The next item asked of the source; a task that finishes meanwhile is yielded at once.
  let pulling: Promise<Pulled<T>> | undefined;
  let exhausted = false;
  try {
    for (;;) {
      if (!pulling && !exhausted && !abort.signal.aborted && running.size < Math.max(1, Math.floor(limit()) || 1)) {
        pulling = Promise.resolve(items.next()).then((pulled) => ({ pulled }));
      }
      if (!pulling && running.size === 0) return;
      const next = await Promise.race<Pulled<T> | Settled<T, R>>(pulling ? [pulling, ...running] : running);
      if ('pulled' in next) {
        pulling = undefined;
        if (next.pulled.done) exhausted = true;
        else running.add(start(next.pulled.value, work, abort.signal));
        continue;
      }
      running.delete(next.task as Running<T, R>);
      yield next.done;
    }
  } finally {
    abort.abort();
    signal?.removeEventListener('abort', stop);
    await Promise.allSettled(running);
    if (!exhausted) await (pulling ?? Promise.resolve()).then(() => items.return?.(), () => undefined);
  }
}

function start<T, R>(item: T, work: (item: T, signal: AbortSignal) => Promise<R>, signal: AbortSignal): Running<T, R> {
  const task: Running<T, R> = work(item, signal).then((result) => ({ task, done: { item, result } }));
  // Handled here, so a failure while the pool waits for its source is not an unhandled rejection; the race still sees it.
  task.catch(() => undefined);
  return task;
}

/**
 * Runs `work` over `items` with at most `width` calls in flight, started in item order.
 * When `signal` is aborted, items not yet started are left out.
 */
export async function forEachBounded<T>(
  items: readonly T[],
  width: Width,
  work: (item: T, index: number) => Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  const indexed = items.map((item, index) => ({ item, index }));
  const finishing = mapBounded(indexed, width, ({ item, index }) => work(item, index), signal);
  while (!(await finishing.next()).done);
}
