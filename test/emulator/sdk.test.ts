/**
 * The service's published Node SDK against the emulator, over loopback HTTP: the emulator's
 * shapes are checked by the service's own client, not by ours. The SDK reads its base URL from
 * VORTEX_API_BASE_URL on every request, so each test sets it for its own emulator.
 */
import { Vortex, type ConfigureAutojoinRequest } from '@teamvortexsoftware/vortex-node-22-sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateData, startEmulator, type Emulator } from '../../src/emulator/index.js';
import { createClient, readLiveState } from '../../src/service/index.js';

let emulator: Emulator;
let vortex: Vortex;
const previousBaseUrl = process.env.VORTEX_API_BASE_URL;

beforeEach(async () => {
  emulator = await startEmulator({ data: generateData({ scopes: 1, invitationsPerScope: 12, domainsPerScope: 2, seed: 3 }) });
  process.env.VORTEX_API_BASE_URL = emulator.url;
  vortex = new Vortex(emulator.apiKey);
});

afterEach(async () => {
  if (previousBaseUrl === undefined) delete process.env.VORTEX_API_BASE_URL;
  else process.env.VORTEX_API_BASE_URL = previousBaseUrl;
  await emulator.close();
});

describe('the Node SDK against the emulator', () => {
  it('getAutojoinDomains on a never-configured scope is {autojoinDomains: [], invitation: null}', async () => {
    expect(await vortex.getAutojoinDomains('team', 'never-configured')).toEqual({ autojoinDomains: [], invitation: null });
  });

  it('configureAutojoin with metadata succeeds; groups[0] is the scope, named scopeName', async () => {
    const result = await vortex.configureAutojoin({
      scope: 'acme-eng',
      scopeType: 'team',
      scopeName: 'Acme Engineering',
      domains: ['acme.com', 'acme.org'],
      componentId: 'cmp_8f2c',
      metadata: { owner: 'eng', tier: 2 },
    });
    expect(result.autojoinDomains.map((entry) => entry.domain)).toEqual(['acme.com', 'acme.org']);
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the real service still sends `groups`, so the emulator must too
    expect(result.invitation?.groups[0]).toEqual({
      id: expect.stringMatching(/^grp_/u),
      accountId: expect.any(String),
      groupId: 'acme-eng',
      scopeId: 'acme-eng', // added by the SDK from groupId
      type: 'team',
      name: 'Acme Engineering',
      createdAt: expect.any(String),
    });
    expect(result.invitation).toMatchObject({ invitationType: 'autojoin', deactivated: false, metadata: { owner: 'eng', tier: 2 } });
    const read = await vortex.getAutojoinDomains('team', 'acme-eng');
    expect(read.invitation?.id).toBe(result.invitation?.id);
    expect(read.autojoinDomains).toEqual(result.autojoinDomains);
  });

  it('configureAutojoin of [] deactivates: the answer, call 2b and the listing carry the invitation with deactivated: true', async () => {
    const set = await vortex.configureAutojoin({ scope: 'acme', scopeType: 'team', domains: ['acme.com'], componentId: 'cmp_1', metadata: { owner: 'eng' } });
    const cleared = await vortex.configureAutojoin({ scope: 'acme', scopeType: 'team', domains: [], componentId: 'cmp_1' });
    const deactivated = { id: set.invitation?.id, invitationType: 'autojoin', deactivated: true, metadata: { owner: 'eng' } };
    expect(cleared).toEqual({ autojoinDomains: [], invitation: expect.objectContaining(deactivated) });
    expect(await vortex.getAutojoinDomains('team', 'acme')).toEqual({ autojoinDomains: [], invitation: expect.objectContaining(deactivated) });
    expect(await vortex.getInvitationsByScope('team', 'acme')).toEqual([expect.objectContaining(deactivated)]);
    // The SDK's own answer, read by our client: no active autojoin, so a plan of domains shows a create.
    const client = ourClient(emulator.url);
    try {
      expect((await readLiveState(client, [{ scopeType: 'team', scope: 'acme' }])).get('team/acme')).toMatchObject({ domains: [], autojoin: null });
    } finally {
      await client.close();
    }
  });

  it('configureAutojoin with widgetId, as SDKs before April 2026 send it, is accepted like componentId', async () => {
    const older = { scope: 'acme', scopeType: 'team', domains: ['acme.com'], widgetId: 'cmp_1' } as unknown as ConfigureAutojoinRequest;
    const result = await vortex.configureAutojoin(older);
    expect(result.autojoinDomains.map((entry) => entry.domain)).toEqual(['acme.com']);
    expect(emulator.data().scopes['team/acme']?.componentId).toBe('cmp_1');
    const unknown = { scope: 'acme', scopeType: 'team', domains: ['acme.com'], componentId: 'cmp_1', widget: 'x' } as unknown as ConfigureAutojoinRequest;
    await expect(vortex.configureAutojoin(unknown)).rejects.toThrow(/400 Bad Request - .*property widget should not exist/u);
  });

  it('a configureAutojoin without metadata keeps the stored metadata; one with metadata replaces it; 2b and the listing show it', async () => {
    const scope = { scope: 'acme', scopeType: 'team', componentId: 'cmp_1' };
    await vortex.configureAutojoin({ ...scope, domains: ['acme.com'], metadata: { owner: 'eng', tier: 2 } });
    const kept = await vortex.configureAutojoin({ ...scope, domains: ['acme.com', 'acme.org'] });
    expect(kept.invitation).toMatchObject({ metadata: { owner: 'eng', tier: 2 } });
    const replaced = await vortex.configureAutojoin({ ...scope, domains: ['acme.com'], metadata: { owner: 'ops' } });
    expect((replaced.invitation as unknown as { metadata: unknown }).metadata).toEqual({ owner: 'ops' });
    expect((await vortex.getAutojoinDomains('team', 'acme')).invitation).toMatchObject({ metadata: { owner: 'ops' } });
    expect(await vortex.getInvitationsByScope('team', 'acme')).toEqual([expect.objectContaining({ metadata: { owner: 'ops' } })]);
  });

  it('our client with a base URL ending in /api/v1 (the Python SDK\'s form) writes what the SDK reads, never doubling the prefix', async () => {
    const client = ourClient(`${emulator.url}/api/v1/`);
    try {
      await client.syncAutojoin({ scope: 'acme', scopeType: 'team', componentId: 'cmp_1', domains: ['acme.com'] });
      expect((await vortex.getAutojoinDomains('team', 'acme')).autojoinDomains.map((entry) => entry.domain)).toEqual(['acme.com']);
      expect((await readLiveState(client, [{ scopeType: 'team', scope: 'acme' }])).get('team/acme')?.domains).toEqual(['acme.com']);
      expect(client.baseUrl).toBe(emulator.url);
    } finally {
      await client.close();
    }
    expect(emulator.requests.map((request) => `${request.method} ${request.path} ${request.status}`)).toEqual([
      'POST /api/v1/invitations/autojoin 200',
      'GET /api/v1/invitations/by-scope/team/acme/autojoin 200',
      'GET /api/v1/invitations/by-scope/team/acme/autojoin 200',
    ]);
  });

  it('getInvitationsByScope reads the whole listing in one request when the emulator does not paginate', async () => {
    await emulator.close();
    emulator = await startEmulator({ data: generateData({ scopes: 1, invitationsPerScope: 45, domainsPerScope: 2, seed: 3 }), unpaginated: true });
    process.env.VORTEX_API_BASE_URL = emulator.url;
    const invitations = await vortex.getInvitationsByScope('team', 'scope-0001');
    expect(invitations).toHaveLength(46);
    const targetTypes = new Set(invitations.flatMap((invitation) => invitation.target.map((target) => target.type)));
    expect([...targetTypes].every((type) => ['email', 'phone', 'share', 'internal'].includes(type))).toBe(true);
    expect(invitations.find((invitation) => invitation.invitationType === 'autojoin')?.target).toEqual([]);
    expect(emulator.requests.map((request) => request.path)).toEqual(['/api/v1/invitations/by-scope/team/scope-0001']);
  });

  it('a webmail domain is refused with 400, the reason in the SDK error', async () => {
    const failure = vortex.configureAutojoin({ scope: 'acme', scopeType: 'team', domains: ['gmail.com'], componentId: 'cmp_1' });
    await expect(failure).rejects.toThrow(/400 Bad Request - .*gmail\.com is a webmail domain/u);
  });
});

/** Our client for the emulator at `baseUrl`. */
function ourClient(baseUrl: string): ReturnType<typeof createClient> {
  return createClient({ baseUrl, apiKey: emulator.apiKey });
}
