/**
 * The service's published Node SDK against the emulator, over loopback HTTP: the emulator's
 * shapes are checked by the service's own client, not by ours. The SDK reads its base URL from
 * VORTEX_API_BASE_URL on every request, so each test sets it for its own emulator.
 */
import { Vortex } from '@teamvortexsoftware/vortex-node-22-sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateData, startEmulator, type Emulator } from '../../src/emulator/index.js';

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

  it('configureAutojoin of [] deactivates: the answer and call 2b carry invitation null', async () => {
    await vortex.configureAutojoin({ scope: 'acme', scopeType: 'team', domains: ['acme.com'], componentId: 'cmp_1' });
    expect(await vortex.configureAutojoin({ scope: 'acme', scopeType: 'team', domains: [], componentId: 'cmp_1' })).toEqual({
      autojoinDomains: [],
      invitation: null,
    });
    expect(await vortex.getAutojoinDomains('team', 'acme')).toEqual({ autojoinDomains: [], invitation: null });
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
