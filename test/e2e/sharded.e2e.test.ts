/**
 * Sharded runs as a CI matrix runs them: N plan jobs write their parts, one job merges them into
 * the reviewed plan, N apply jobs each apply their shard of it, pinned to its sha256.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { shardIndexOf } from '../../src/plan/shard.js';
import { cli, liveDomains, policy, posts, setLive, startTestEmulator, tempProject, useEmulatorProject, type TempProject } from './support.js';

let emulator: Emulator;
let project: TempProject;
useEmulatorProject(() => ({ emulator, project }));

const N = 4;
const SCOPES = Array.from({ length: 16 }, (_, index) => `s${index}`);

/** Every scope changes; a few in each shard also remove a domain. */
async function setup(maxRemovals = 50): Promise<void> {
  emulator = await startTestEmulator();
  const files: Record<string, string> = { 'autojoin-sync.yaml': `safety:\n  maxRemovals: ${maxRemovals}\n` };
  for (const scope of SCOPES) {
    await setLive(emulator, scope, [`${scope}.example`, `old-${scope}.example`]);
    files[`${scope}.autojoin.yaml`] = policy(scope, [`${scope}.example`, `new-${scope}.example`]);
  }
  project = await tempProject(files);
}

async function planParts(): Promise<void> {
  emulator.requests.length = 0;
  for (let k = 1; k <= N; k += 1) {
    const part = await cli(['plan', '--shard', `${k}/${N}`, '--out', `part-${k}.json`], { cwd: project.dir, emulator });
    expect(part.code, part.stderr).toBe(0);
  }
}

function digestOf(stderr: string): string {
  const match = /sha256 ([0-9a-f]{64})/.exec(stderr);
  expect(match, stderr).not.toBeNull();
  return match?.[1] ?? '';
}

describe('plan matrix → merge-plans → apply matrix', () => {
  it('the N shard applies together write exactly the merged plan, each only its own scopes', async () => {
    await setup();
    await planParts();
    const merged = await cli(['merge-plans', ...Array.from({ length: N }, (_, k) => `part-${k + 1}.json`), '--out', 'plan.json', '--format', 'markdown'], { cwd: project.dir, emulator });
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.stdout).toContain('16');
    const digest = digestOf(merged.stderr);
    const document = JSON.parse(await readFile(join(project.dir, 'plan.json'), 'utf8')) as { shards: number; changes: { key: string }[] };
    expect(document.shards).toBe(N);
    expect(document.changes).toHaveLength(SCOPES.length);
    for (let k = 1; k <= N; k += 1) {
      emulator.requests.length = 0;
      const applied = await cli(['apply', '--plan', 'plan.json', '--plan-sha256', digest, '--shard', `${k}/${N}`, '--yes'], { cwd: project.dir, emulator });
      expect(applied.code, applied.stderr).toBe(0);
      const mine = SCOPES.filter((scope) => shardIndexOf(`team/${scope}`, N) === k);
      expect(posts(emulator)).toBe(mine.length);
    }
    for (const scope of SCOPES) expect(liveDomains(emulator.data(), scope)).toEqual([`${scope}.example`, `new-${scope}.example`].sort());
    const after = await cli(['plan', '--detailed-exitcode'], { cwd: project.dir, emulator });
    expect(after.code).toBe(0);
  });

  it('decides the removal limit on the merged plan: 16 removals over 4 shards pass per part and are refused merged (exit 3, nothing written)', async () => {
    await setup(3);
    await planParts();
    const merged = await cli(['merge-plans', 'part-1.json', 'part-2.json', 'part-3.json', 'part-4.json', '--out', 'plan.json'], { cwd: project.dir, emulator });
    expect(merged.code).toBe(0);
    expect(merged.stderr).toMatch(/apply would refuse this plan/);
    emulator.requests.length = 0;
    const applied = await cli(['apply', '--plan', 'plan.json', '--shard', `1/${N}`, '--yes'], { cwd: project.dir, emulator });
    expect(applied.code).toBe(3);
    expect(posts(emulator)).toBe(0);
  });

  it('refuses a part applied alone, apply --shard without a plan, and a missing shard', async () => {
    await setup();
    await planParts();
    const alone = await cli(['apply', '--plan', 'part-1.json', '--yes'], { cwd: project.dir, emulator });
    expect(alone.code).toBe(1);
    expect(alone.stderr).toContain('part-1.json is shard 1/4 alone, never applied on its own');
    const unplanned = await cli(['apply', '--shard', '1/4', '--yes'], { cwd: project.dir, emulator });
    expect(unplanned.code).toBe(1);
    expect(unplanned.stderr).toContain('give --plan FILE (from merge-plans)');
    const gap = await cli(['merge-plans', 'part-1.json', 'part-2.json', 'part-4.json', '--out', 'plan.json'], { cwd: project.dir, emulator });
    expect(gap.code).toBe(1);
    expect(gap.stderr).toContain('shard 3/4 missing');
    expect(posts(emulator)).toBe(0);
  });
});
