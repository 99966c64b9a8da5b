/** The one bounded pool (src/concurrency.ts): a moving width, a lazy source, and stopping on the first error. */
import { describe, expect, it } from 'vitest';
import { forEachBounded, mapBounded, readAhead } from '../src/concurrency.js';

/** A promise and its resolver: a step waits for an event, never for a time. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

/** One turn of the event loop: every callback and promise already due runs first (no clock). */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('mapBounded', () => {
  it('reads its width before each start, so a window that shrinks starts fewer', async () => {
    let width = 4;
    let inFlight = 0;
    const peaks: number[] = [];
    const work = async (item: number): Promise<number> => {
      inFlight += 1;
      peaks.push(inFlight);
      await turn();
      inFlight -= 1;
      return item;
    };
    const done: number[] = [];
    for await (const { result } of mapBounded(Array.from({ length: 12 }, (_, i) => i), () => width, work)) {
      done.push(result);
      if (done.length === 4) width = 1;
    }
    expect(done.sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i));
    expect(Math.max(...peaks.slice(0, 4))).toBe(4);
    expect(Math.max(...peaks.slice(-4))).toBe(1);
  });

  it('yields a finished task while its source is still producing the next item', async () => {
    const order: string[] = [];
    // The source gives 2 only once 1 came out finished: a pool that waited for the source first would never end.
    const firstOut = deferred();
    async function* source(): AsyncGenerator<number> {
      yield 1;
      await firstOut.promise;
      order.push('source gave 2');
      yield 2;
    }
    for await (const { item } of mapBounded(source(), 4, (n) => Promise.resolve(n))) {
      order.push(`finished ${item}`);
      if (item === 1) firstOut.resolve();
    }
    expect(order).toEqual(['finished 1', 'source gave 2', 'finished 2']);
  });

  it('a source that throws aborts the tasks in flight, waits for them, and rethrows', async () => {
    const aborted: number[] = [];
    const ended: number[] = [];
    async function* source(): AsyncGenerator<number> {
      yield 1;
      yield 2;
      await turn();
      throw new Error('source failed');
    }
    // Each task ends when it is aborted: a pool that did not abort them would never end.
    const work = async (n: number, signal: AbortSignal): Promise<number> => {
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      if (signal.aborted) aborted.push(n);
      ended.push(n);
      return n;
    };
    const run = async (): Promise<void> => {
      for await (const finished of mapBounded(source(), 4, work)) expect(finished).toBeUndefined();
    };
    await expect(run()).rejects.toThrow('source failed');
    expect(ended.sort()).toEqual([1, 2]);
    expect(aborted.sort()).toEqual([1, 2]);
  });

  it('a task that throws starts nothing more and rethrows the first error', async () => {
    const started: number[] = [];
    const failed = deferred();
    // Tasks 0 and 1 end only after task 2 failed, so the pool had room to start more after the failure.
    const work = async (n: number): Promise<void> => {
      started.push(n);
      await turn();
      if (n === 2) {
        failed.resolve();
        throw new Error('task 2 failed');
      }
      await failed.promise;
      await turn();
    };
    await expect(forEachBounded(Array.from({ length: 20 }, (_, i) => i), 3, work)).rejects.toThrow('task 2 failed');
    await turn();
    expect(started).toEqual([0, 1, 2]);
  });
});

describe('readAhead', () => {
  it('takes every item as the source produces it, whether or not they are taken out', async () => {
    async function* source(): AsyncGenerator<number> {
      for (let i = 0; i < 5; i++) yield await Promise.resolve(i);
    }
    const ahead = readAhead(source());
    await turn(); // the source's promises are all resolved before the next turn
    expect(ahead.received).toBe(5);
    const taken: number[] = [];
    for await (const item of ahead.items) taken.push(item);
    expect(taken).toEqual([0, 1, 2, 3, 4]);
  });

  it('a source that throws drops the items still waiting and throws at the next pull', async () => {
    const threw = deferred();
    async function* source(): AsyncGenerator<number> {
      yield 1;
      yield 2;
      await turn();
      threw.resolve();
      throw new Error('source failed');
    }
    const ahead = readAhead(source());
    const first = await ahead.items.next();
    expect(first.value).toBe(1);
    await threw.promise;
    await turn();
    await expect(ahead.items.next()).rejects.toThrow('source failed');
    expect(ahead.received).toBe(2);
  });
});

