/**
 * A program written with nothing but invitation-service-interface.md in hand: plain fetch, the
 * documented paths, the x-api-key and Bearer headers, the documented body fields, and the
 * documented paging (20 a page; next start values 19, 39, 59, …). It must work against the
 * emulator unchanged, whichever way the emulator reads `start`.
 */
import { describe, expect, it } from 'vitest';
import { generateData, type StartMode } from '../../src/emulator/index.js';
import { startEmulator } from '../../src/emulator/index.js';

interface InvitationLike {
  id: string;
  [field: string]: unknown;
}

function interfaceOnlyClient(baseUrl: string, apiKey: string, accessToken: string) {
  const json = async (response: Response) => {
    if (!response.ok) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
    return response.json();
  };
  return {
    async setAutojoinDomains(body: { domains: string[]; scope: string; scopeType: string; componentId: string; scopeName?: string }) {
      const response = await fetch(`${baseUrl}/api/v1/invitations/autojoin`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'x-api-key': apiKey },
        body: JSON.stringify(body),
      });
      return json(response) as Promise<{ autojoinDomains: { id: string; domain: string }[]; invitation: InvitationLike }>;
    },
    async listGroupInvitations(groupType: string, groupId: string): Promise<InvitationLike[]> {
      const byId = new Map<string, InvitationLike>();
      for (let start = 0; ; start = start === 0 ? 19 : start + 20) {
        const url = `${baseUrl}/api/v1/invitations/by-group/${encodeURIComponent(groupType)}/${encodeURIComponent(groupId)}?start=${start}`;
        const page = ((await json(await fetch(url, { headers: { 'x-api-key': apiKey } }))) as { invitations: InvitationLike[] }).invitations;
        const fresh = page.filter((invitation) => !byId.has(invitation.id));
        for (const invitation of fresh) byId.set(invitation.id, invitation);
        if (page.length < 20 || fresh.length === 0) return [...byId.values()];
      }
    },
    async getFormStylePreset(presetId: string) {
      const url = `${baseUrl}/api/v1/customer-invitation-form-style-presets/${encodeURIComponent(presetId)}`;
      return json(await fetch(url, { headers: { Authorization: `Bearer ${accessToken}` } }));
    },
    async listEmailPresets() {
      return json(await fetch(`${baseUrl}/api/v1/customer-invitation-email-presets`, { headers: { Authorization: `Bearer ${accessToken}` } }));
    },
  };
}

describe.each<StartMode>(['offset', 'after'])('a program written from the interface text alone (start mode %s)', (startMode) => {
  it('syncs, lists all pages and reads presets', async () => {
    const emulator = await startEmulator({
      startMode,
      data: generateData({ scopes: 1, invitationsPerScope: 44, domainsPerScope: 0, seed: 11, scopeType: 'team' }),
    });
    try {
      const client = interfaceOnlyClient(emulator.url, emulator.apiKey, emulator.accessToken);
      const synced = await client.setAutojoinDomains({
        domains: ['acme.com', 'acme.co.uk'],
        scope: 'scope-0001',
        scopeType: 'team',
        componentId: 'cmp_8f2c',
        scopeName: 'Acme Engineering',
      });
      expect(synced.autojoinDomains.map((domain) => domain.domain)).toEqual(['acme.com', 'acme.co.uk']);

      const invitations = await client.listGroupInvitations('team', 'scope-0001');
      expect(invitations).toHaveLength(45);
      expect(new Set(invitations.map((invitation) => invitation.id)).size).toBe(45);
      const autojoin = invitations.find((invitation) => invitation.id === synced.invitation.id);
      expect(autojoin).toMatchObject({ invitationType: 'autojoin', deactivated: false });

      await expect(client.setAutojoinDomains({ domains: ['gmail.com'], scope: 'scope-0001', scopeType: 'team', componentId: 'cmp_8f2c' }))
        .rejects.toThrow('HTTP 400');
      expect(await client.getFormStylePreset('fsp-default')).toMatchObject({ id: 'fsp-default' });
      expect(Array.isArray(await client.listEmailPresets())).toBe(true);
    } finally {
      await emulator.close();
    }
  });
});
