/**
 * `validate` of one wide scope: 50,000 domains in one policy against the same 50,000 domains as 50
 * scopes of 1,000, both loaded in-process by loadPolicies. The work per domain should not depend on
 * how the domains are grouped; it did, once: the compiled schema's `uniqueItems` on `domains`
 * compared every pair of entries (6,500 → 52,000 domains: 0.38 → 6.6 s of CPU). Figures are CPU
 * seconds of the whole process (every thread, so the loader's workers too), best of three rounds,
 * which a shared machine disturbs less than wall time.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadPolicies } from '../src/policy/index.js';
import type { BenchOptions, BenchRow } from './types.js';

const DOMAINS = 50_000;
const SCOPES = 50;
/** Issue 50: one scope of 50,000 domains within 1.5× of 50 scopes of 1,000. */
const GOAL_RATIO = 1.5;
const ROUNDS = 3;

/** Runs the benchmark and returns its row for the `npm run bench` table. */
export async function benchWide(options: BenchOptions): Promise<BenchRow[]> {
  const domains = options.short ? 500 : DOMAINS;
  const scopes = options.short ? 5 : SCOPES;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'autojoin-bench-wide-'));
  try {
    await writeScopes(path.join(dir, 'one'), 1, domains);
    await writeScopes(path.join(dir, 'many'), scopes, domains / scopes);
    let one = Number.POSITIVE_INFINITY;
    let many = Number.POSITIVE_INFINITY;
    for (let round = 0; round < ROUNDS; round++) {
      one = Math.min(one, await cpuOfLoad(path.join(dir, 'one'), 1));
      many = Math.min(many, await cpuOfLoad(path.join(dir, 'many'), scopes));
    }
    const ratio = one / many;
    return [
      {
        name: `validate 1 scope of ${domains.toLocaleString('en')} domains (loadPolicies, CPU)`,
        value: `${one.toFixed(2)} s CPU`,
        comparison: `${ratio.toFixed(2)}× the same ${domains.toLocaleString('en')} domains as ${scopes} scopes of ${(domains / scopes).toLocaleString('en')} (${many.toFixed(2)} s CPU); best of ${ROUNDS}`,
        goal: `≤ ${GOAL_RATIO}× the ${scopes} scopes`,
        met: ratio <= GOAL_RATIO,
      },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Writes `scopes` policy files of `perScope` distinct registrable domains each under `dir` (short names: 50,000 fit the 1 MiB cap of a file). */
async function writeScopes(dir: string, scopes: number, perScope: number): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (let s = 0; s < scopes; s++) {
    const lines = Array.from({ length: perScope }, (_, i) => `  - co-${s * perScope + i}.com`);
    await writeFile(path.join(dir, `team-${s}.autojoin.yaml`), `scope: team-${s}\nscopeType: team\ncomponentId: cmp_1\ndomains:\n${lines.join('\n')}\n`);
  }
}

/** @returns the CPU seconds (every thread) loadPolicies took over `dir`, which must load cleanly. */
async function cpuOfLoad(dir: string, expected: number): Promise<number> {
  const before = process.cpuUsage();
  const result = await loadPolicies(['.'], { cwd: dir });
  const used = process.cpuUsage(before);
  if (result.policies.length !== expected || result.diagnostics.length !== 0) {
    throw new Error(`bench corpus did not load cleanly: ${result.policies.length} policies, ${result.diagnostics.length} diagnostics`);
  }
  return (used.user + used.system) / 1e6;
}
