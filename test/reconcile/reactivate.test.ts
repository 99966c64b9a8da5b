/**
 * A scope whose autojoin was cleared keeps its invitation, deactivated (the emulator answers as
 * the service does): plan reads that as no autojoin, so activating it again is a create, with
 * each read mode.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makePlan } from '../../src/reconcile/index.js';
import { settingsIn } from '../../src/run/settings.js';
import type { ReadMode } from '../../src/service/index.js';
import { startPeer, type Peer } from '../service/support/peer.js';

let peer: Peer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await peer?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  peer = dir = undefined;
});

const REF = { scopeType: 'team', scope: 'acme' };

describe('re-activating a cleared scope', () => {
  it.each([undefined, 'by-scope', 'by-group'] as const)('is a create, not an update (read: %s)', async (listing: ReadMode | undefined) => {
    peer = await startPeer();
    await peer.client.syncAutojoin({ ...REF, componentId: 'c', domains: ['old.example'], metadata: { owner: 'eng' } });
    const cleared = await peer.client.syncAutojoin({ ...REF, componentId: 'c', domains: [] });
    expect(cleared.invitation).toMatchObject({ deactivated: true, metadata: { owner: 'eng' } });
    dir = await mkdtemp(path.join(os.tmpdir(), 'autojoin-reactivate-'));
    await writeFile(path.join(dir, 'a.autojoin.yaml'), 'scope: acme\nscopeType: team\ncomponentId: c\nmetadata: {owner: ops}\ndomains:\n  - new.example\n');
    const { plan } = await makePlan({ settings: settingsIn(dir, { flags: { read: listing } }), client: peer.client });
    expect(plan?.changes).toEqual([expect.objectContaining({ kind: 'create', key: 'team/acme', before: [], after: ['new.example'] })]);
  });
});
