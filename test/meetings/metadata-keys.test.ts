/**
 * Per-key metadata under a marker an older release wrote (issue 33, last gaps): a marker without
 * `autojoin-sync.keys` says nothing of the keys it wrote, so they are read from the policy at the
 * marker's `autojoin-sync.commit` (one git batch), not assumed to be today's: a key the policy
 * dropped since is removed, another writer's key is kept. When that commit cannot be read, the
 * keys declared now stand in and the plan says so once. In-process through the command layer:
 * real git repository, emulator over loopback.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { repo, type Repo } from './support.js';

const DAY = '2026-03-01';
const policy = (metadata: string): string => `scope: acme\nscopeType: team\ncomponentId: c1\n${metadata}domains:\n  - acme.com\n`;

let current: Repo | undefined;
let scratch: string | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
  if (scratch) await rm(scratch, { recursive: true, force: true });
  scratch = undefined;
});

/** Applied with {owner, cost} at commit A; the marker then rewritten as an older release kept it (no keys, no applied) with another writer's key; the policy now declares {owner}. */
async function olderMarker(commit?: string): Promise<Repo> {
  const r = (current = await repo({ 'acme.autojoin.yaml': policy('metadata: {owner: eng, cost: "10"}\n') }));
  expect((await r.run(DAY, 'apply', '--yes', '.')).code).toBe(0);
  const live = await r.live('acme');
  const { 'autojoin-sync.keys': _keys, 'autojoin-sync.applied': _applied, ...older } = live.metadata ?? {};
  await r.admin('acme', live.domains, { ...older, 'team-note': 'ask Kim', ...(commit ? { 'autojoin-sync.commit': commit } : {}) });
  await r.write('acme.autojoin.yaml', policy('metadata: {owner: eng}\n'));
  r.commit('drop cost');
  return r;
}

describe('a marker without autojoin-sync.keys', () => {
  it('takes the keys its policy declared at the marker\'s commit: the plan removes `cost` and keeps `team-note`', async () => {
    const r = await olderMarker();
    const plan = JSON.parse((await r.run(DAY, 'plan', '--format', 'json', '.')).stdout) as { changes: { keptMetadata?: unknown; fieldChanges?: unknown[] }[]; notes?: string[] };
    expect(plan.changes).toMatchObject([{ keptMetadata: { 'team-note': 'ask Kim' }, fieldChanges: [{ field: 'metadata', before: { owner: 'eng', cost: '10' }, after: { owner: 'eng' } }] }]);
    expect(plan.notes ?? []).toEqual([]);
    const applied = await r.run(DAY, 'apply', '--yes', '.');
    expect(applied.code, applied.stderr).toBe(0);
    const after = (await r.live('acme')).metadata ?? {};
    expect(after).toMatchObject({ owner: 'eng', 'team-note': 'ask Kim', 'autojoin-sync.keys': 'owner' });
    expect(after).not.toHaveProperty('cost');
    expect((await r.run(DAY, 'plan', '--detailed-exitcode', '.')).code).toBe(0);
  });

  it('a saved plan made so applies (its claim on the keys holds against the live state)', async () => {
    const r = await olderMarker();
    scratch = await mkdtemp(path.join(tmpdir(), 'keys-plan-'));
    const out = path.join(scratch, 'plan.json');
    expect((await r.run(DAY, 'plan', '--out', out, '.')).code).toBe(0);
    const applied = await r.run(DAY, 'apply', '--yes', '--plan', out);
    expect(applied.code, applied.stderr).toBe(0);
    const after = (await r.live('acme')).metadata ?? {};
    expect(after).toMatchObject({ owner: 'eng', 'team-note': 'ask Kim' });
    expect(after).not.toHaveProperty('cost');
  });

  it('when the marker\'s commit is not in this repository, the keys declared now stand in and the plan says so once', async () => {
    const r = await olderMarker('0123456789abcdef0123456789abcdef01234567');
    const plan = JSON.parse((await r.run(DAY, 'plan', '--format', 'json', '.')).stdout) as { changes: unknown[]; notes?: string[] };
    // `cost` counts as another writer's then: nothing of the file's keys differs, nothing is written.
    expect(plan.changes).toEqual([]);
    expect((plan.notes ?? []).filter((note) => note.includes('autojoin-sync.keys'))).toHaveLength(1);
  });
});
