/** The one bounded pool (src/concurrency.ts): a moving width, a lazy source, and stopping on the first error. */
import { describe, expect, it } from 'vitest';
import { forEachBounded, mapBounded, readAhead } from '../src/concurrency.js';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('mapBounded', () => {
  it('reads its width before each start, so a window that shrinks starts fewer', async () => {
    let width = 4;
    let inFlight = 0;
    const peaks: number[] = [];
    const work = async (item: number): Promise<number> => {
      inFlight += 1;
      peaks.push(inFlight);
      await wait(2);
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
    async function* source(): AsyncGenerator<number> {
      yield 1;
      await wait(40);
      order.push('source gave 2');
      yield 2;
    }
    for await (const { item } of mapBounded(source(), 4, (n) => Promise.resolve(n))) order.push(`finished ${item}`);
    expect(order).toEqual(['finished 1', 'source gave 2', 'finished 2']);
  });

  it('a source that throws aborts the tasks in flight, waits for them, and rethrows', async () => {
    const aborted: number[] = [];
    const ended: number[] = [];
    async function* source(): AsyncGenerator<number> {
      yield 1;
      yield 2;
      await wait(5);
      throw new Error('source failed');
    }
    const work = async (n: number, signal: AbortSignal): Promise<number> => {
      await wait(20);
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
    const work = async (n: number): Promise<void> => {
      started.push(n);
      await wait(n === 2 ? 1 : 10);
      if (n === 2) throw new Error('task 2 failed');
    };
    await expect(forEachBounded(Array.from({ length: 20 }, (_, i) => i), 3, work)).rejects.toThrow('task 2 failed');
    await wait(30);
    expect(started).toEqual([0, 1, 2]);
  });
});

describe('readAhead', () => {
  it('takes every item as the source produces it, whether or not they are taken out', async () => {
    async function* source(): AsyncGenerator<number> {
      for (let i = 0; i < 5; i++) yield await Promise.resolve(i);
    }
    const ahead = readAhead(source());
    await wait(5);
    expect(ahead.received).toBe(5);
    const taken: number[] = [];
    for await (const item of ahead.items) taken.push(item);
    expect(taken).toEqual([0, 1, 2, 3, 4]);
  });

  it('a source that throws drops the items still waiting and throws at the next pull', async () => {
    async function* source(): AsyncGenerator<number> {
      yield 1;
      yield 2;
      await wait(5);
      throw new Error('source failed');
    }
    const ahead = readAhead(source());
    const first = await ahead.items.next();
    expect(first.value).toBe(1);
    await wait(20);
    await expect(ahead.items.next()).rejects.toThrow('source failed');
    expect(ahead.received).toBe(2);
  });
});

