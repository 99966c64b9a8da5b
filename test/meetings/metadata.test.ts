/**
 * Per-key metadata (issue 33, as `kubectl apply` keeps the fields it did not set): the keys a
 * policy declares now and the keys it declared at the last apply (`autojoin-sync.keys`) are this
 * repository's; every other live key (`team-note`) survives every write, and a key the policy
 * dropped (also the whole block) is removed. In-process: real git repository, emulator over loopback.
 */
import { describe, expect, it } from 'vitest';
import { reposClosedAfterEach } from './support.js';

const policy = (metadata: string): string => `scope: acme\nscopeType: team\ncomponentId: c1\n${metadata}domains:\n  - acme.com\n`;
const DAY = '2026-03-01';

const openRepo = reposClosedAfterEach();

describe('metadata is managed per key', () => {
  it('keeps another writer\'s key on every write and removes a key the policy dropped', async () => {
    const r = await openRepo({ 'acme.autojoin.yaml': policy('metadata: {owner: eng, tier: gold}\n') });
    expect((await r.run(DAY, 'apply', '--yes', '.')).code).toBe(0);
    expect((await r.live('acme')).metadata).toMatchObject({ 'autojoin-sync.keys': 'owner,tier', 'autojoin-sync.applied': DAY });
    const live = await r.live('acme');
    await r.admin('acme', live.domains, { ...live.metadata, 'team-note': 'ask Kim' });
    const quiet = await r.run(DAY, 'plan', '--detailed-exitcode', '.');
    expect(quiet.code, quiet.stdout).toBe(0);

    await r.write('acme.autojoin.yaml', policy('metadata: {owner: ops}\n'));
    r.commit();
    expect((await r.run(DAY, 'apply', '--yes', '.')).code).toBe(0);
    const after = (await r.live('acme')).metadata ?? {};
    expect(after).toMatchObject({ owner: 'ops', 'team-note': 'ask Kim', 'autojoin-sync.keys': 'owner' });
    expect(after).not.toHaveProperty('tier');

    await r.write('acme.autojoin.yaml', policy(''));
    r.commit();
    const plan = await r.run(DAY, 'plan', '--detailed-exitcode', '.');
    expect(plan.code, plan.stderr).toBe(2);
    expect((await r.run(DAY, 'apply', '--yes', '.')).code).toBe(0);
    const last = (await r.live('acme')).metadata ?? {};
    expect(last).toMatchObject({ 'team-note': 'ask Kim', 'autojoin-sync.keys': '' });
    expect(last).not.toHaveProperty('owner');
    expect((await r.run(DAY, 'plan', '--detailed-exitcode', '.')).code).toBe(0);
  });
});
