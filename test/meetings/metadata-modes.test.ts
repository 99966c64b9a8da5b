/**
 * Per-key metadata under each `--post-metadata` mode of the service (issue 35, item 4): an admin
 * adds a key of their own, then edits the domains with a POST that carries no metadata; the next
 * apply of a policy change writes the policy's keys and the marker and removes no key that this
 * repository never managed, whatever the service did with the admin's POST. In-process: real git
 * repository, the emulator over loopback in each mode.
 */
import { describe, expect, it } from 'vitest';
import { reposClosedAfterEach } from './support.js';

const policy = (owner: string): string => `scope: acme\nscopeType: team\ncomponentId: c1\nmetadata: {owner: ${owner}}\ndomains:\n  - acme.com\n`;
const DAY = '2026-03-01';
const OURS = (key: string): boolean => key === 'owner' || key.startsWith('autojoin-sync.');

const openRepo = reposClosedAfterEach();

/** The keys no policy of this repository declared, with their values. */
function othersOf(metadata: Record<string, unknown> | null): Record<string, unknown> {
  return Object.fromEntries(Object.entries(metadata ?? {}).filter(([key]) => !OURS(key)));
}

describe.each([
  ['keep', { noteAfterAdmin: true, metadataShown: true }],
  ['replace', { noteAfterAdmin: false, metadataShown: true }],
  ['ignore', { noteAfterAdmin: false, metadataShown: false }],
] as const)('--post-metadata %s', (mode, expected) => {
  it('an apply after the admin\'s edits removes no key it never managed, and writes the policy\'s keys', async () => {
    const r = await openRepo({ 'acme.autojoin.yaml': policy('eng') }, { postMetadata: mode });
    expect((await r.run(DAY, 'apply', '--yes', '.')).code).toBe(0);
    const applied = await r.live('acme');
    // The admin adds a note of their own (a POST with the metadata it read), then edits the domains without metadata.
    await r.admin('acme', applied.domains, { ...applied.metadata, 'team-note': 'ask Kim' });
    await r.admin('acme', [...applied.domains, 'partner.example']);
    const before = await r.live('acme');
    expect(othersOf(before.metadata)).toEqual(expected.noteAfterAdmin ? { 'team-note': 'ask Kim' } : {});

    await r.write('acme.autojoin.yaml', policy('ops'));
    r.commit();
    const plan = await r.run(DAY, 'plan', '.');
    if (!expected.metadataShown) expect(plan.stdout + plan.stderr).toMatch(/ownership cannot be read|keeps no metadata|no ownership marker/iu);
    const apply = await r.run(DAY, 'apply', '--yes', '.');
    expect(apply.code, apply.stderr).toBe(0);
    const after = await r.live('acme');
    expect(after.domains).toEqual(['acme.com']);
    // No write of this repository removes another writer's key: what was live before is live after.
    expect(othersOf(after.metadata)).toEqual(othersOf(before.metadata));
    if (expected.metadataShown) expect(after.metadata).toMatchObject({ owner: 'ops', 'autojoin-sync.owner': 'default', 'autojoin-sync.keys': 'owner' });
    else expect(after.metadata ?? {}).toEqual({});
  });
});
