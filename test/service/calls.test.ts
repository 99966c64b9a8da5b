/** Every call of the client against the emulator over loopback HTTP. */
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, ServiceError } from '../../src/service/index.js';
import { startPeer, SCOPE_1, type Peer, listAll } from './support/peer.js';
import { useWording } from '../../src/hint.js';
import { cliWording } from '../../src/cli/cli-wording.js';

// The messages asserted here are worded as the CLI words them (src/hint.ts).
useWording(cliWording);

let peer: Peer | undefined;
afterEach(async () => {
  await peer?.close();
  peer = undefined;
});

const SYNC = { scope: 'acme-eng', scopeType: 'team', componentId: 'cmp_8f2c' };

describe('client against the emulator', () => {
  it('syncs a complete list (call 2) and reads it back (calls 1, 1b, 2b)', async () => {
    peer = await startPeer();
    const state = await peer.client.syncAutojoin({ ...SYNC, domains: ['acme.com', 'acme.co.uk'] });
    expect(state.autojoinDomains.map((d) => d.domain).sort()).toEqual(['acme.co.uk', 'acme.com']);
    expect(state.invitation?.invitationType).toBe('autojoin');

    const ref = { scopeType: 'team', scope: 'acme-eng' };
    const byScope = await listAll(peer.client, 'by-scope', ref);
    const byGroup = await listAll(peer.client, 'by-group', ref);
    expect(byScope.map((i) => i.id)).toEqual([state.invitation?.id]);
    expect(byGroup.map((i) => i.id)).toEqual([state.invitation?.id]);

    const read = await peer.client.getAutojoin(ref);
    expect(read?.autojoinDomains.map((d) => d.id).sort()).toEqual(state.autojoinDomains.map((d) => d.id).sort());
    expect(peer.emulator.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'POST /api/v1/invitations/autojoin 200',
      'GET /api/v1/invitations/by-scope/team/acme-eng?start=0 200',
      'GET /api/v1/invitations/by-group/team/acme-eng?start=0 200',
      'GET /api/v1/invitations/by-scope/team/acme-eng/autojoin 200',
    ]);
    expect(peer.client.requestCount).toBe(4);
  });

  it('reads call 2b of a scope without autojoin as the emulator answers it: domains [], invitation null', async () => {
    peer = await startPeer();
    expect(await peer.client.getAutojoin({ scopeType: 'team', scope: 'nobody' })).toEqual({ autojoinDomains: [], invitation: null });
  });

  it('reads a clear answered with the deactivated invitation, as call 2b then shows it too', async () => {
    peer = await startPeer();
    const set = await peer.client.syncAutojoin({ ...SYNC, domains: ['acme.com'] });
    const cleared = await peer.client.syncAutojoin({ ...SYNC, domains: [] });
    expect(cleared).toMatchObject({ autojoinDomains: [], invitation: { id: set.invitation?.id, invitationType: 'autojoin', deactivated: true } });
    expect(await peer.client.getAutojoin({ scopeType: 'team', scope: 'acme-eng' })).toEqual(cleared);
  });

  it('reads the presets (calls 3 and 4) with the bearer token only', async () => {
    peer = await startPeer();
    const presets = await peer.client.listEmailPresets();
    expect(presets.map((p) => p.id)).toEqual(['ep-welcome', 'ep-reminder']);
    const preset = await peer.client.getFormStylePreset('fsp-default');
    expect(preset).toMatchObject({ id: 'fsp-default', name: 'Default' });
    const error = await peer.client.getFormStylePreset('missing').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).message).toBe(
      '[GET] /api/v1/customer-invitation-form-style-presets/missing: 404 Form style preset missing not found',
    );
  });

  it('surfaces the service message of a webmail 400', async () => {
    peer = await startPeer();
    const error = (await peer.client.syncAutojoin({ ...SYNC, domains: ['acme.com', 'gmail.com'] }).catch((e: unknown) => e)) as ServiceError;
    expect(error).toBeInstanceOf(ServiceError);
    expect(error.code).toBe('http');
    expect(error.status).toBe(400);
    expect(error.method).toBe('POST');
    expect(error.path).toBe('/api/v1/invitations/autojoin');
    expect(error.serviceMessage).toMatch(/gmail\.com.*webmail/u);
    expect(error.message).toBe(`[POST] /api/v1/invitations/autojoin: 400 ${error.serviceMessage}`);
    expect(peer.client.requestCount).toBe(1); // a 400 is never retried
  });

  it('turns a 401 into a clear error that never contains the key', async () => {
    peer = await startPeer({ apiKey: 'right-key-1234', accessToken: 'right-token-5678' });
    const wrong = createClient({ baseUrl: peer.emulator.url, apiKey: 'wrong-key-9999', accessToken: 'wrong-token-0000' });
    try {
      const listError = (await listAll(wrong, 'by-scope', SCOPE_1).catch((e: unknown) => e)) as ServiceError;
      expect(listError.code).toBe('http');
      expect(listError.status).toBe(401);
      expect(listError.message).toBe(
        '[GET] /api/v1/invitations/by-scope/team/scope-0001?start=0: 401 Missing or invalid x-api-key header (check AUTOJOIN_API_KEY)',
      );
      const presetError = (await wrong.listEmailPresets().catch((e: unknown) => e)) as ServiceError;
      expect(presetError.status).toBe(401);
      expect(presetError.message).toContain('(check AUTOJOIN_ACCESS_TOKEN)');
      for (const text of [listError.message, presetError.message, JSON.stringify(listError), String(listError.cause)]) {
        expect(text).not.toContain('wrong-key-9999');
        expect(text).not.toContain('wrong-token-0000');
        expect(text).not.toContain('right-key-1234');
      }
      expect(wrong.requestCount).toBe(2); // a 401 is never retried
    } finally {
      await wrong.close();
    }
  });

  it('refuses a call without its credential before any request, naming the variable', async () => {
    peer = await startPeer();
    const keyless = createClient({ baseUrl: peer.emulator.url });
    try {
      await expect(listAll(keyless, 'by-group', SCOPE_1)).rejects.toThrow(/^AUTOJOIN_API_KEY is not set/u);
      await expect(keyless.syncAutojoin({ ...SYNC, domains: [] })).rejects.toThrow(/^AUTOJOIN_API_KEY is not set/u);
      await expect(keyless.listEmailPresets()).rejects.toThrow(/^AUTOJOIN_ACCESS_TOKEN is not set/u);
      expect(keyless.requestCount).toBe(0);
      expect(peer.emulator.requests).toEqual([]);
    } finally {
      await keyless.close();
    }
  });

  it('sends x-api-key only on invitation calls and Bearer only on preset calls', async () => {
    // The emulator enforces presence; absence of the other credential is checked by swapping them.
    peer = await startPeer({ apiKey: 'shared-secret-a', accessToken: 'shared-secret-b' });
    const swapped = createClient({ baseUrl: peer.emulator.url, apiKey: 'shared-secret-b', accessToken: 'shared-secret-a' });
    try {
      await expect(listAll(swapped, 'by-scope', SCOPE_1)).rejects.toMatchObject({ status: 401 });
      await expect(swapped.listEmailPresets()).rejects.toMatchObject({ status: 401 });
    } finally {
      await swapped.close();
    }
  });

  it('gives the deprecation notice of the by-group listing once per client', async () => {
    peer = await startPeer({ generate: { scopes: 3, invitationsPerScope: 2 } });
    for (const scope of ['scope-0001', 'scope-0002', 'scope-0003']) {
      await listAll(peer.client, 'by-group', { scopeType: 'team', scope });
    }
    await listAll(peer.client, 'by-scope', SCOPE_1);
    expect(peer.notices).toEqual(['the by-group listing is deprecated; use --read by-scope, or the default --read autojoin']);
  });

  it('keeps every scope value in one path segment', async () => {
    peer = await startPeer();
    const hostile = ['a/b', '../x', '..', '.', 'a?start=999', 'a#frag', '%2F', 'sp ace', 'ünï'];
    for (const scope of hostile) {
      await peer.client.syncAutojoin({ ...SYNC, scope, domains: [`${hostile.indexOf(scope)}.example.com`] });
    }
    for (const [index, scope] of hostile.entries()) {
      const ref = { scopeType: 'team', scope };
      const listed = await listAll(peer.client, 'by-scope', ref);
      expect(listed).toHaveLength(1);
      expect(listed[0]?.scope).toBe(scope);
      expect(listed[0]?.groups?.[0]?.groupId).toBe(scope);
      const state = await peer.client.getAutojoin(ref);
      expect(state?.autojoinDomains.map((d) => d.domain)).toEqual([`${index}.example.com`]);
      expect(state?.invitation?.scope).toBe(scope);
    }
    const paths = peer.emulator.requests.filter((r) => r.method === 'GET').map((r) => r.path);
    expect(paths).toContain('/api/v1/invitations/by-scope/team/a%2Fb?start=0');
    expect(paths).toContain('/api/v1/invitations/by-scope/team/..%2Fx?start=0');
    expect(paths).toContain('/api/v1/invitations/by-scope/team/%2E%2E?start=0');
    expect(paths).toContain('/api/v1/invitations/by-scope/team/%2E/autojoin');
    expect(paths).toContain('/api/v1/invitations/by-scope/team/a%3Fstart%3D999?start=0');
    expect(peer.emulator.requests.every((r) => r.status === 200)).toBe(true);
  });

  it('refuses an empty path segment before any request', async () => {
    peer = await startPeer();
    await expect(listAll(peer.client, 'by-scope', { scopeType: 'team', scope: '' })).rejects.toThrow(/empty value/u);
    expect(peer.client.requestCount).toBe(0);
  });

  it('rejects (never throws) a call 2b or preset call whose path cannot be built, as an async call does', async () => {
    peer = await startPeer();
    const autojoin = peer.client.getAutojoin({ scopeType: 'team', scope: '' });
    const preset = peer.client.getFormStylePreset('');
    await expect(autojoin).rejects.toThrow(/empty value/u);
    await expect(preset).rejects.toThrow(/empty value/u);
    expect(peer.client.requestCount).toBe(0);
  });

  it('accepts a base URL with a trailing slash', async () => {
    peer = await startPeer();
    const client = createClient({ baseUrl: `${peer.emulator.url}/`, apiKey: peer.emulator.apiKey });
    try {
      expect(client.baseUrl).toBe(peer.emulator.url);
      expect(await listAll(client, 'by-scope', SCOPE_1)).toEqual([]);
    } finally {
      await client.close();
    }
  });
});
