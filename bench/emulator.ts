/**
 * The emulator at scale: 500 writes (call 2, 16 in flight) against an emulator persisting to a
 * data file, once over a 10,000-scope state and once over an empty one, in the same run. With
 * the journal (src/emulator/journal.ts) a write appends its scope instead of rewriting the whole
 * state, so the two should take about the same time. Goal (issue 13): ≤ 2× the empty state.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { emptyData, generateData, startEmulator, type EmulatorData } from '../src/emulator/index.js';
import { forEachBounded } from '../src/concurrency.js';
import { createClient } from '../src/service/client.js';
import type { BenchOptions, BenchRow } from './types.js';

const GOAL = 2;

/** @returns seconds taken by `writes` syncs against an emulator over `data`, persisted in `dir`. */
async function timeWrites(dir: string, data: EmulatorData, writes: number): Promise<number> {
  const emulator = await startEmulator({ port: 0, dataFile: path.join(dir, `state-${Object.keys(data.scopes).length}.json`), data });
  const client = createClient({ baseUrl: emulator.url, apiKey: emulator.apiKey });
  try {
    const started = performance.now();
    await forEachBounded(Array.from({ length: writes }, (_, i) => i), 16, async (i) => {
      const scope = `scope-${String((i % 1_000) + 1).padStart(4, '0')}`;
      await client.syncAutojoin({ scope, scopeType: 'team', componentId: 'cmp-bench', domains: [`w${i}.${scope}.example`] });
    });
    return (performance.now() - started) / 1000;
  } finally {
    await client.close();
    await emulator.close();
  }
}

/** Runs the benchmark and returns its row for the `npm run bench` table. */
export async function benchEmulator(options: BenchOptions): Promise<BenchRow[]> {
  const scopes = options.short ? 200 : 10_000;
  const writes = options.short ? 20 : 500;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'autojoin-bench-emulator-'));
  try {
    const large = generateData({ scopes, invitationsPerScope: 5, domainsPerScope: 2, seed: 3 });
    const empty = await timeWrites(dir, emptyData(), writes);
    const full = await timeWrites(dir, large, writes);
    return [
      {
        name: `emulator with a data file: ${writes} writes on ${scopes.toLocaleString('en')} scopes`,
        value: `${full.toFixed(2)} s`,
        comparison: `${(full / empty).toFixed(2)}× the same writes on an empty state (${empty.toFixed(2)} s)`,
        goal: `≤ ${GOAL}× empty`,
        met: full / empty <= GOAL,
      },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
