/**
 * The one bounded pool: every read and write of the service (src/service/state.ts,
 * src/apply/apply-changes.ts) and the other bounded work (git blame) runs through it. For the service its
 * width follows the client's AIMD window (`ServiceClient.poolWidth`, src/service/pacing.ts), read
 * again before each start, so the window is the only limit on requests in flight: a task sends
 * one request at a time, and the pool starts no task while the window is full.
 *
 * Items are pulled from the source only when a place is free, so a source that produces them
 * lazily (policy files loading) holds none waiting. When the consumer stops, the source throws
 * or a task throws, nothing more starts, the tasks in flight are aborted (their `signal`) and
 * awaited, and then the pool ends (rethrowing the first error).
 */

/** How many tasks may run now: a number, or a function of the tasks running, read before each start (a moving window). */
export type Width = number | ((running: number) => number);

/** One finished task: the item it was started for and what it gave. */
export interface Finished<T, R> {
  item: T;
  result: R;
}

/**
 * Runs `work` over the items of `source`, at most `width` at a time, yielding each as it finishes
 * (in completion order), also while the source is still producing the next item.
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
  const limit = typeof width === 'number' ? () => width : width;
  // Every event (a task settled, the source answered) lands here and wakes the loop.
  const events = wakingQueue<Finished<T, R> | { failed: unknown } | { pulled: IteratorResult<T> } | { pullFailed: unknown }>();
  const running = new Set<Promise<void>>();
  let pulling: Promise<void> | undefined;
  let exhausted = false;
  const startWork = (item: T): void => {
    // Out of `running` before its event is seen, so an empty pool is never taken for a busy one.
    const task: Promise<void> = work(item, abort.signal).then(
      (result) => {
        running.delete(task);
        events.push({ item, result });
      },
      (error: unknown) => {
        running.delete(task);
        events.push({ failed: error });
      },
    );
    running.add(task);
  };
  try {
    for (;;) {
      if (!pulling && !exhausted && !abort.signal.aborted && running.size < Math.max(1, Math.floor(limit(running.size)) || 1)) {
        pulling = Promise.resolve(items.next()).then((pulled) => events.push({ pulled }), (error: unknown) => events.push({ pullFailed: error }));
      }
      if (!pulling && running.size === 0 && events.size === 0) return;
      // A queued event is taken at once: no promise a step (several a scope) where none is needed.
      while (events.size === 0) await events.arrival();
      const event = events.take();
      if ('pullFailed' in event || 'failed' in event) throw 'failed' in event ? event.failed : event.pullFailed;
      if ('pulled' in event) {
        pulling = undefined;
        if (event.pulled.done) exhausted = true;
        else startWork(event.pulled.value);
      } else yield event;
    }
  } finally {
    abort.abort();
    signal?.removeEventListener('abort', stop);
    await Promise.allSettled(running);
    if (!exhausted) await (pulling ?? Promise.resolve()).then(() => items.return?.()).catch(() => undefined);
  }
}

/** A queue of events; `arrival` waits for the next push. */
function wakingQueue<E>(): { push(event: E): void; arrival(): Promise<void>; take(): E; readonly size: number } {
  const queued: E[] = [];
  let wake: (() => void) | undefined;
  return {
    push(event) {
      queued.push(event);
      wake?.();
      wake = undefined;
    },
    arrival: () => new Promise<void>((resolve) => (wake = resolve)),
    /** The oldest event; call only when `size` > 0. */
    take: () => queued.shift() as E,
    get size() {
      return queued.length;
    },
  };
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

/** The items of a source drained as fast as it produces them (see {@link readAhead}). */
export interface ReadAhead<T> {
  items: AsyncGenerator<T, void, undefined>;
  /** Items the source has produced so far. */
  readonly received: number;
}

/**
 * Drains `source` as fast as it produces, so a slow consumer (the pool, as wide as the window)
 * never holds the source back (policy files keep loading while scopes are read) and the number
 * produced so far is known. A source that throws drops the items still waiting, and its error is
 * thrown at the next pull; stopping the items stops the source at its next item.
 */
export function readAhead<T>(source: AsyncIterable<T> | Iterable<T>): ReadAhead<T> {
  const iterator = Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : source[Symbol.iterator]();
  const waiting: T[] = [];
  let head = 0;
  let received = 0;
  let end: { failed?: unknown } | undefined;
  // An object, as the consumer sets it while the drain awaits its source.
  const consumer = { stopped: false };
  let wake: (() => void) | undefined;
  const drained = (async () => {
    try {
      for (let next = await iterator.next(); !next.done && !consumer.stopped; next = await iterator.next()) {
        waiting.push(next.value);
        received += 1;
        wake?.();
      }
      end = {};
    } catch (error) {
      end = { failed: error };
      waiting.length = head = 0;
    }
    if (consumer.stopped) await iterator.return?.();
    wake?.();
  })();
  async function* items(): AsyncGenerator<T, void, undefined> {
    try {
      for (;;) {
        if (end && 'failed' in end) throw end.failed;
        if (head < waiting.length) {
          const item = waiting[head] as T;
          waiting[head++] = undefined as T;
          // Let go of what was taken once it is most of the array.
          if (head > 1024 && head * 2 > waiting.length) {
            waiting.splice(0, head);
            head = 0;
          }
          yield item;
        } else if (end) return;
        else await new Promise<void>((resolve) => (wake = resolve));
      }
    } finally {
      consumer.stopped = true;
      await drained.catch(() => undefined);
    }
  }
  return {
    items: items(),
    get received() {
      return received;
    },
  };
}