import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LIST, startPeer, type TestPeer } from './helpers.js';

interface State {
  autojoinDomains: { id: string; domain: string }[];
  invitation: Record<string, unknown> & { id: string; deactivated: boolean; target: { type: string; value: string }[] };
}

/** Call 2 and 2b for a scope that never had autojoin (the SDKs: "null otherwise"). */
const NONE = { autojoinDomains: [], invitation: null };

let peer: TestPeer;
beforeEach(async () => {
  peer = await startPeer();
});
afterEach(() => peer.emulator.close());

const SYNC = '/api/v1/invitations/autojoin';
const valid = { domains: ['acme.com'], scope: 'acme', scopeType: 'team', componentId: 'cmp-1' };

describe('sync semantics (call 2)', () => {
  it('creates the autojoin invitation on the first sync', async () => {
    const answer = await peer.sync({ domains: ['Acme.com', 'acme.co.uk', 'ACME.com'], scope: 'acme', scopeName: 'Acme' });
    expect(answer.status).toBe(200);
    const state = answer.body as State;
    expect(state.autojoinDomains.map((domain) => domain.domain)).toEqual(['acme.com', 'acme.co.uk']);
    expect(new Set(state.autojoinDomains.map((domain) => domain.id)).size).toBe(2);
    expect(state.invitation).toMatchObject({
      invitationType: 'autojoin',
      status: 'sent',
      deactivated: false,
      scope: 'acme',
      scopeType: 'team',
      target: [],
      groups: [{ id: expect.stringMatching(/^grp_/u), accountId: 'acc_emulator', groupId: 'acme', type: 'team', name: 'Acme', createdAt: expect.any(String) }],
      accepts: [],
      widgetConfigurationId: expect.any(String),
    });
    expect(Date.parse(state.invitation.createdAt as string)).not.toBeNaN();
    expect(state.invitation.modifiedAt).toBe(state.invitation.createdAt);
  });

  it('replaces the complete list, keeps ids stable, deactivates on [] and reactivates', async () => {
    const first = (await peer.sync({ domains: ['a.com', 'b.com'], scope: 'acme' })).body as State;
    const idOf = (state: State, domain: string) => state.autojoinDomains.find((entry) => entry.domain === domain)?.id;
    const second = (await peer.sync({ domains: ['b.com', 'c.com'], scope: 'acme' })).body as State;
    expect(second.autojoinDomains.map((domain) => domain.domain)).toEqual(['b.com', 'c.com']);
    expect(idOf(second, 'b.com')).toBe(idOf(first, 'b.com'));
    expect(second.invitation.id).toBe(first.invitation.id);

    const cleared = await peer.sync({ domains: [], scope: 'acme' });
    expect(cleared).toMatchObject({ status: 200, body: { autojoinDomains: [], invitation: { id: first.invitation.id, deactivated: true } } });
    expect(peer.emulator.data().scopes['team/acme']?.autojoin?.invitation).toMatchObject({ id: first.invitation.id, deactivated: true });

    const back = (await peer.sync({ domains: ['a.com', 'c.com'], scope: 'acme' })).body as State;
    expect(back.invitation).toMatchObject({ id: first.invitation.id, deactivated: false });
    expect(idOf(back, 'a.com')).toBe(idOf(first, 'a.com'));
    expect(idOf(back, 'c.com')).toBe(idOf(second, 'c.com'));
  });

  it('after a clear, the listing and call 2b show the deactivated invitation, its metadata and group kept', async () => {
    const set = (await peer.post(SYNC, { ...valid, domains: ['a.com'], scopeName: 'Acme', metadata: { owner: 'eng' } })).body as State;
    await peer.sync({ domains: [], scope: 'acme' });
    const deactivated = { id: set.invitation.id, invitationType: 'autojoin', deactivated: true, metadata: { owner: 'eng' }, groups: [expect.objectContaining({ groupId: 'acme', name: 'Acme' })] };
    const listing = (await peer.get(`${LIST}/team/acme`)).body as { invitations: { deactivated: boolean; invitationType: string }[] };
    expect(listing.invitations).toEqual([expect.objectContaining(deactivated)]);
    const state = await peer.get(`${LIST}/team/acme/autojoin`);
    expect(state).toMatchObject({ status: 200, body: { autojoinDomains: [], invitation: deactivated } });
  });

  it('2b of a scope never configured is 200 with invitation null, never 404', async () => {
    expect(await peer.get(`${LIST}/team/never/autojoin`)).toMatchObject({ status: 200, body: NONE });
  });

  it('renames the group to the last scopeName posted, keeping its service id; a POST without one keeps the name', async () => {
    const first = (await peer.sync({ domains: ['a.com'], scope: 'acme', scopeName: 'Acme' })).body as State;
    const renamed = (await peer.sync({ domains: ['a.com'], scope: 'acme', scopeName: 'Acme Engineering' })).body as State;
    const group = (state: State) => (state.invitation.groups as { id: string; name: string }[])[0];
    expect(group(renamed)).toMatchObject({ id: group(first)?.id, name: 'Acme Engineering' });
    const unnamed = (await peer.sync({ domains: ['a.com'], scope: 'acme' })).body as State;
    expect(group(unnamed)?.name).toBe('Acme Engineering');
  });

  it('stores the optional metadata on the autojoin invitation; a POST without it keeps it, one with it replaces it', async () => {
    const tagged = await peer.post(SYNC, { ...valid, metadata: { owner: 'eng', tags: ['a'] } });
    expect(tagged.status).toBe(200);
    expect((tagged.body as State).invitation.metadata).toEqual({ owner: 'eng', tags: ['a'] });
    const again = (await peer.sync({ domains: ['acme.com'], scope: 'acme' })).body as State;
    expect(again.invitation.metadata).toEqual({ owner: 'eng', tags: ['a'] });
    const listing = (await peer.get(`${LIST}/team/acme`)).body as { invitations: State['invitation'][] };
    expect(listing.invitations[0]?.metadata).toEqual({ owner: 'eng', tags: ['a'] });
    const replaced = (await peer.post(SYNC, { ...valid, metadata: { tier: '2' } })).body as State;
    expect(replaced.invitation.metadata).toEqual({ tier: '2' }); // replaced whole, not merged
    expect(((await peer.get(`${LIST}/team/acme/autojoin`)).body as State).invitation.metadata).toEqual({ tier: '2' });
  });

  it('accepts the older name widgetId for componentId (SDKs before April 2026, the Python, Ruby and Rust SDKs)', async () => {
    const { componentId, ...withoutComponentId } = valid;
    const older = await peer.post(SYNC, { ...withoutComponentId, widgetId: componentId });
    expect(older.status, JSON.stringify(older.body)).toBe(200);
    expect(peer.emulator.data().scopes['team/acme']?.componentId).toBe(componentId);
    expect((await peer.post(SYNC, { ...valid, widgetId: componentId })).status).toBe(200);
    expect(await peer.post(SYNC, { ...valid, widgetId: 'cmp-other' })).toMatchObject({
      status: 400,
      body: { message: ['componentId and widgetId (its older name) must not differ'] },
    });
    expect(await peer.post(SYNC, withoutComponentId)).toMatchObject({ status: 400, body: { message: ['componentId is required'] } });
  });

  it('a sync that changes nothing keeps modifiedAt', async () => {
    // The clock is set, not waited for: only Date is faked, the sockets' timers stay real.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
      const first = (await peer.sync({ domains: ['a.com'], scope: 'acme' })).body as State;
      vi.setSystemTime(new Date('2026-01-01T00:01:00Z'));
      const again = (await peer.sync({ domains: ['A.com'], scope: 'acme' })).body as State;
      expect(again.invitation.modifiedAt).toBe(first.invitation.modifiedAt);
      const changed = (await peer.sync({ domains: ['b.com'], scope: 'acme' })).body as State;
      expect(changed.invitation.modifiedAt).not.toBe(first.invitation.modifiedAt);
    } finally {
      vi.useRealTimers();
    }
  });

  it('scopes of different types are separate', async () => {
    await peer.sync({ domains: ['a.com'], scope: 'acme', scopeType: 'team' });
    await peer.sync({ domains: ['b.com'], scope: 'acme', scopeType: 'workspace' });
    const team = (await peer.get(`${LIST}/team/acme/autojoin`)).body as State;
    const workspace = (await peer.get(`${LIST}/workspace/acme/autojoin`)).body as State;
    expect(team.autojoinDomains.map((domain) => domain.domain)).toEqual(['a.com']);
    expect(workspace.autojoinDomains.map((domain) => domain.domain)).toEqual(['b.com']);
  });

  it('the listing carries no domain targets by default, the current domains as targets with domainTargets', async () => {
    await peer.sync({ domains: ['x.org', 'y.org'], scope: 'acme' });
    const plain = (await peer.get(`${LIST}/team/acme?start=0`)).body as { invitations: State['invitation'][] };
    expect(plain.invitations[0]?.target).toEqual([]);
    const withTargets = await startPeer({ data: peer.emulator.data(), domainTargets: true });
    try {
      const listing = (await withTargets.get(`${LIST}/team/acme?start=0`)).body as { invitations: State['invitation'][] };
      expect(listing.invitations[0]?.target).toEqual([{ type: 'domain', value: 'x.org' }, { type: 'domain', value: 'y.org' }]);
    } finally {
      await withTargets.emulator.close();
    }
  });
});

describe('sync validation', () => {
  it('rejects a webmail domain (any case) with the service message and stores nothing', async () => {
    const answer = await peer.sync({ domains: ['acme.com', 'GMail.com'], scope: 'acme' });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      statusCode: 400,
      message: 'Domain gmail.com is a webmail domain and cannot be used for autojoin',
      error: 'Bad Request',
    });
    expect((await peer.get(`${LIST}/team/acme/autojoin`)).body).toEqual(NONE);
    expect((await peer.sync({ domains: ['yahoo.co.uk'], scope: 'acme' })).status).toBe(400);
  });

  it('rejects bodies that break the interface, naming every field (a list of messages)', async () => {
    const cases: [unknown, string | string[]][] = [
      [{ ...valid, domains: undefined }, ['domains is required']],
      [{ ...valid, scope: undefined, componentId: undefined }, ['scope is required', 'componentId is required']],
      [{ ...valid, domains: 'acme.com' }, ['domains must be an array']],
      [{ ...valid, domains: [''] }, ['domains each value must be a domain of 1 to 253 characters (item 0 is not)']],
      [{ ...valid, scopeType: 7 }, ['scopeType must be a string']],
      [{ ...valid, extra: true }, ['property extra should not exist']],
      [{ ...valid, metadata: ['a'] }, ['metadata must be an object']],
      [{ ...valid, metadata: null }, ['metadata must be an object']],
      [[valid], 'Request body must be a JSON object'],
    ];
    for (const [body, message] of cases) {
      const answer = await peer.post(SYNC, body);
      expect(answer.status, JSON.stringify(message)).toBe(400);
      expect(answer.body).toEqual({ statusCode: 400, message, error: 'Bad Request' });
    }
  });

  it('rejects invalid JSON, a non-JSON content type and malformed domains', async () => {
    const broken = await peer.post(SYNC, '{"domains": [');
    expect(broken).toMatchObject({ status: 400, body: { message: 'Request body is not valid JSON' } });
    const text = await peer.post(SYNC, JSON.stringify(valid), { 'x-api-key': peer.emulator.apiKey, 'content-type': 'text/plain' });
    expect(text.status).toBe(415);
    const spaced = await peer.sync({ domains: ['acme .com'], scope: 'acme' });
    expect(spaced).toMatchObject({ status: 400, body: { message: 'Domain "acme .com" is not a valid domain name' } });
    const slashType = await peer.post(SYNC, { ...valid, scopeType: 'a/b' });
    expect(slashType).toMatchObject({ status: 400, body: { message: "scopeType must not contain '/'" } });
  });

  it('refuses a body over 1 MiB with 413', async () => {
    const big = { ...valid, scopeName: 'x'.repeat(1024 * 1024) };
    const answer = await peer.post(SYNC, big);
    expect(answer.status).toBe(413);
    expect((answer.body as { error: string }).error).toBe('Payload Too Large');
    expect((await peer.get(`${LIST}/team/acme/autojoin`)).body).toEqual(NONE);
  });

  it('a contract-valid body just under the limit is accepted', async () => {
    const domains = Array.from({ length: 5000 }, (_, i) => `d${i}.example.com`);
    const answer = await peer.sync({ domains, scope: 'big' });
    expect(answer.status).toBe(200);
    expect((answer.body as State).autojoinDomains).toHaveLength(5000);
  });
});
