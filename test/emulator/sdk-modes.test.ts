/**
 * The published Node SDK (@teamvortexsoftware/vortex-node-22-sdk) against the emulator in every
 * mode of release 4 (default, --no-groups, --post-metadata keep | replace | ignore), through each
 * call it makes that touches autojoin: configureAutojoin (create and update), getAutojoinDomains,
 * revokeInvitation and deleteInvitationsByScope. Every answer is also held to the Python SDK's
 * model (test/support/python-sdk-model.ts), so the emulator's shapes are checked by two clients
 * we did not write.
 */
import { Vortex } from '@teamvortexsoftware/vortex-node-22-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { generateData, startEmulator, type Emulator, type EmulatorOptions } from '../../src/emulator/index.js';
import { pythonAutojoinProblems, pythonInvitationProblems } from '../support/python-sdk-model.js';
import { tempDir } from './helpers.js';

let emulator: Emulator | undefined;
const previousBaseUrl = process.env.VORTEX_API_BASE_URL;

afterEach(async () => {
  if (previousBaseUrl === undefined) delete process.env.VORTEX_API_BASE_URL;
  else process.env.VORTEX_API_BASE_URL = previousBaseUrl;
  await emulator?.close();
  emulator = undefined;
});

async function sdkAgainst(options: EmulatorOptions = {}): Promise<Vortex> {
  emulator = await startEmulator(options);
  process.env.VORTEX_API_BASE_URL = emulator.url;
  return new Vortex(emulator.apiKey);
}

const ACME = { scope: 'acme', scopeType: 'team', scopeName: 'Acme', componentId: 'cmp_1' };
type Loose = Record<string, unknown>;

describe('invitation shape (release 4)', () => {
  it('invitations carry deploymentId, widgetId (the posted componentId) and passThrough; accepts[] items a status; all parse as the Python SDK models them', async () => {
    const vortex = await sdkAgainst({ data: generateData({ scopes: 1, invitationsPerScope: 25, domainsPerScope: 2, seed: 3 }), unpaginated: true });
    const created = await vortex.configureAutojoin({ ...ACME, domains: ['acme.com'] });
    expect(created.invitation as unknown as Loose).toMatchObject({ deploymentId: expect.any(String), widgetId: 'cmp_1', passThrough: expect.any(String) });
    expect(pythonAutojoinProblems(created)).toEqual([]);
    const moved = await vortex.configureAutojoin({ ...ACME, componentId: 'cmp_2', domains: ['acme.com'] });
    expect((moved.invitation as unknown as Loose).widgetId).toBe('cmp_2');
    expect(pythonAutojoinProblems(await vortex.getAutojoinDomains('team', 'acme'))).toEqual([]);
    const listed = await vortex.getInvitationsByScope('team', 'scope-0001');
    expect(listed.flatMap((invitation) => pythonInvitationProblems(invitation))).toEqual([]);
    const accepts = listed.flatMap((invitation) => invitation.accepts ?? []) as unknown as Loose[];
    expect(accepts.length).toBeGreaterThan(0);
    expect(accepts.every((accept) => accept.status === 'accepted')).toBe(true);
  });

  it('--no-groups: no invitation carries groups or accepts, in call 2, 2b and the listing; still a valid Python model', async () => {
    const vortex = await sdkAgainst({ groups: false, data: generateData({ scopes: 1, invitationsPerScope: 5, domainsPerScope: 1, seed: 3 }), unpaginated: true });
    const created = await vortex.configureAutojoin({ ...ACME, domains: ['acme.com'] });
    const answers = [created.invitation, (await vortex.getAutojoinDomains('team', 'acme')).invitation, ...(await vortex.getInvitationsByScope('team', 'scope-0001'))];
    for (const invitation of answers as unknown as Loose[]) {
      expect(invitation).not.toHaveProperty('accepts');
      // The Node SDK copies groups into scopes only when groups are there.
      expect(invitation.groups ?? []).toEqual([]);
      expect(pythonInvitationProblems(invitation)).toEqual([]);
    }
  });
});

describe('--post-metadata: what a configureAutojoin without metadata does', () => {
  const marked = { 'autojoin-sync.owner': 'default', tier: '2' };
  const cases: [EmulatorOptions['postMetadata'], unknown, boolean][] = [
    ['keep', marked, true],
    ['replace', null, true],
    ['ignore', undefined, false],
  ];
  it.each(cases)('%s: the stored metadata after a POST without it is %j', async (mode, after, shown) => {
    const vortex = await sdkAgainst({ postMetadata: mode });
    const first = await vortex.configureAutojoin({ ...ACME, domains: ['acme.com'], metadata: marked });
    expect(Object.hasOwn(first.invitation as object, 'metadata')).toBe(shown);
    const admin = await vortex.configureAutojoin({ ...ACME, domains: ['acme.com', 'acme.org'] });
    const read = await vortex.getAutojoinDomains('team', 'acme');
    for (const invitation of [admin.invitation, read.invitation] as unknown as Loose[]) {
      expect(Object.hasOwn(invitation, 'metadata')).toBe(shown);
      expect(invitation.metadata).toEqual(after);
    }
    const listed = (await vortex.getInvitationsByScope('team', 'acme'))[0] as unknown as Loose;
    expect(listed.metadata).toEqual(after);
  });
});

describe('the two DELETE calls of the SDKs', () => {
  it('revokeInvitation of the autojoin invitation: gone from 2b (invitation null, no domains) and the listing; an unknown id is a 404', async () => {
    const vortex = await sdkAgainst({ data: generateData({ scopes: 1, invitationsPerScope: 3, domainsPerScope: 2, seed: 3 }) });
    const autojoin = (await vortex.getAutojoinDomains('team', 'scope-0001')).invitation;
    expect(autojoin?.deactivated).toBe(false);
    expect(await vortex.revokeInvitation(autojoin?.id as string)).toEqual({});
    expect(await vortex.getAutojoinDomains('team', 'scope-0001')).toEqual({ autojoinDomains: [], invitation: null });
    const listed = await vortex.getInvitationsByScope('team', 'scope-0001');
    expect(listed.map((invitation) => invitation.invitationType)).not.toContain('autojoin');
    expect(listed).toHaveLength(3);
    await expect(vortex.revokeInvitation(autojoin?.id as string)).rejects.toThrow(/404 Not Found/u);
    // A new sync creates a new invitation; the domains keep their ids.
    const again = await vortex.configureAutojoin({ scope: 'scope-0001', scopeType: 'team', componentId: 'cmp_1', domains: ['d1.scope-0001.example'] });
    expect(again.invitation?.id).not.toBe(autojoin?.id);
  });

  it('revokeInvitation of an ordinary invitation leaves the autojoin one alone', async () => {
    const vortex = await sdkAgainst({ data: generateData({ scopes: 1, invitationsPerScope: 3, domainsPerScope: 2, seed: 3 }) });
    const ordinary = (await vortex.getInvitationsByScope('team', 'scope-0001')).find((invitation) => invitation.invitationType !== 'autojoin');
    await vortex.revokeInvitation(ordinary?.id as string);
    const listed = await vortex.getInvitationsByScope('team', 'scope-0001');
    expect(listed.map((invitation) => invitation.id)).not.toContain(ordinary?.id);
    expect((await vortex.getAutojoinDomains('team', 'scope-0001')).autojoinDomains).toHaveLength(2);
  });

  it('deleteInvitationsByScope removes every invitation of the scope, the autojoin one too, and persists through a restart', async () => {
    const { dir, cleanup } = await tempDir();
    try {
      const dataFile = `${dir}/state.json`;
      const vortex = await sdkAgainst({ dataFile, data: generateData({ scopes: 2, invitationsPerScope: 4, domainsPerScope: 1, seed: 3 }) });
      expect(await vortex.deleteInvitationsByScope('team', 'scope-0001')).toEqual({});
      expect(await vortex.getInvitationsByScope('team', 'scope-0001')).toEqual([]);
      expect(await vortex.getAutojoinDomains('team', 'scope-0001')).toEqual({ autojoinDomains: [], invitation: null });
      expect(await vortex.deleteInvitationsByScope('team', 'never-there')).toEqual({});
      // The older path the Python, Ruby and Rust SDKs still call.
      const byGroup = await fetch(`${emulator?.url ?? ''}/api/v1/invitations/by-group/team/scope-0002`, { method: 'DELETE', headers: { 'x-api-key': emulator?.apiKey ?? '' } });
      expect(byGroup.status).toBe(200);
      expect(await vortex.getAutojoinDomains('team', 'scope-0002')).toEqual({ autojoinDomains: [], invitation: null });
      await emulator?.close();
      const restarted = await sdkAgainst({ dataFile });
      expect(await restarted.getInvitationsByScope('team', 'scope-0001')).toEqual([]);
      expect(await restarted.getInvitationsByScope('team', 'scope-0002')).toEqual([]);
    } finally {
      // Closed before its folder goes: an emulator closed later writes its state again, and the folder with it.
      await emulator?.close();
      emulator = undefined;
      await cleanup();
    }
  });
});
