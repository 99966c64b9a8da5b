/**
 * Every read mode applies the ownership guard: a listing (by-scope, by-group) whose active
 * autojoin invitation omits `metadata` says nothing about ownership, so the marker is taken
 * from call 2b, which the listing modes read anyway; another owner's scope then shows its owner.
 */
import { describe, expect, it } from 'vitest';
import { createClient, readLiveState } from '../../src/service/index.js';
import { useCleanup } from './support/cleanup.js';
import { sendJson, startHostileServer } from './support/hostile-server.js';
import { FAST_RETRY } from './support/peer.js';

const closeAfterTest = useCleanup();
const MARKER = { 'autojoin-sync.owner': 'infra', 'autojoin-sync.digest': 'd'.repeat(64) };

/** Listings without `metadata`; call 2b with the marker (or, for `bare`, without metadata either). */
async function service(bare = false) {
  const invitation = { id: 'aj-acme', invitationType: 'autojoin', deactivated: false, target: [{ type: 'domain', value: 'acme.example' }] };
  const server = closeAfterTest(
    await startHostileServer((request, response) => {
      const autojoin = (request.url ?? '').split('?')[0]?.endsWith('/autojoin');
      if (autojoin) sendJson(response, 200, { autojoinDomains: [{ id: 'd1', domain: 'acme.example' }], invitation: bare ? invitation : { ...invitation, metadata: MARKER } });
      else sendJson(response, 200, { invitations: [invitation] });
    }),
  );
  return closeAfterTest(createClient({ baseUrl: server.url, apiKey: 'k-123456', retry: FAST_RETRY }));
}

describe('a listing without metadata: the marker comes from call 2b', () => {
  it.each(['by-scope', 'by-group'] as const)('%s: another owner\'s marker is read from call 2b', async (mode) => {
    const live = await readLiveState(await service(), [{ scopeType: 'team', scope: 'acme' }], { mode });
    expect(live.get('team/acme')?.metadata).toEqual(MARKER);
  });

  it('when call 2b shows no metadata either, the scope still says nothing (undefined), as before', async () => {
    const live = await readLiveState(await service(true), [{ scopeType: 'team', scope: 'acme' }], { mode: 'by-scope' });
    expect(live.get('team/acme')?.metadata).toBeUndefined();
  });
});
