import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateData } from '../../src/emulator/index.js';
import { LIST, startPeer, type TestPeer } from './helpers.js';

let peer: TestPeer;
beforeAll(async () => {
  peer = await startPeer({ data: generateData({ scopes: 2, invitationsPerScope: 3, domainsPerScope: 2, seed: 7 }) });
});
afterAll(() => peer.emulator.close());

describe('listings (calls 1 and 1b)', () => {
  it('by-scope lists ordinary invitations and the autojoin one, without domain targets (the real shape)', async () => {
    const answer = await peer.get(`${LIST}/team/scope-0001?start=0`);
    expect(answer.status).toBe(200);
    const invitations = (answer.body as { invitations: { invitationType: string; target?: unknown }[] }).invitations;
    expect(invitations).toHaveLength(4);
    const autojoin = invitations.filter((invitation) => invitation.invitationType === 'autojoin');
    expect(autojoin).toHaveLength(1);
    expect(autojoin[0]?.target).toEqual([]);
    expect(answer.headers.get('deprecation')).toBeNull();
  });

  it('by-group answers the same and marks itself deprecated with a successor link', async () => {
    const byGroup = await peer.get('/api/v1/invitations/by-group/team/scope-0001?start=0');
    const byScope = await peer.get(`${LIST}/team/scope-0001`);
    expect(byGroup.status).toBe(200);
    expect(byGroup.body).toEqual(byScope.body);
    expect(byGroup.headers.get('deprecation')).toBe('true');
    expect(byGroup.headers.get('link')).toBe('</api/v1/invitations/by-scope/team/scope-0001>; rel="successor-version"');
  });

  it('an unknown scope lists nothing', async () => {
    const answer = await peer.get(`${LIST}/team/nobody`);
    expect(answer).toMatchObject({ status: 200, body: { invitations: [] } });
  });

  it('a bad start is a 400', async () => {
    for (const start of ['-1', 'abc', '1.5']) {
      const answer = await peer.get(`${LIST}/team/scope-0001?start=${start}`);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ statusCode: 400, message: 'start must be a non-negative integer', error: 'Bad Request' });
    }
  });
});

describe('call 2b', () => {
  it('returns the domains and the invitation', async () => {
    const answer = await peer.get(`${LIST}/team/scope-0002/autojoin`);
    expect(answer.status).toBe(200);
    const body = answer.body as { autojoinDomains: { domain: string }[]; invitation: { invitationType: string; scope: string } };
    expect(body.autojoinDomains.map((domain) => domain.domain)).toEqual(['d1.scope-0002.example', 'd2.scope-0002.example']);
    expect(body.invitation).toMatchObject({ invitationType: 'autojoin', scope: 'scope-0002', scopeType: 'team', deactivated: false });
  });

  it('answers 200 {autojoinDomains: [], invitation: null} for a scope without autojoin, never 404', async () => {
    const answer = await peer.get(`${LIST}/team/nobody/autojoin`);
    expect(answer).toMatchObject({ status: 200, body: { autojoinDomains: [], invitation: null } });
  });
});

describe('presets (calls 3 and 4)', () => {
  it('reads a form style preset and lists email presets', async () => {
    const preset = await peer.preset('/api/v1/customer-invitation-form-style-presets/fsp-default');
    expect(preset.status).toBe(200);
    expect(preset.body).toMatchObject({ id: 'fsp-default', name: 'Default' });
    const emails = await peer.preset('/api/v1/customer-invitation-email-presets');
    expect(emails.status).toBe(200);
    expect((emails.body as { id: string }[]).map((preset) => preset.id)).toEqual(['ep-welcome', 'ep-reminder']);
  });

  it('an unknown preset is a 404', async () => {
    const answer = await peer.preset('/api/v1/customer-invitation-form-style-presets/nope');
    expect(answer).toMatchObject({ status: 404, body: { statusCode: 404, message: 'Form style preset nope not found' } });
    const proto = await peer.preset('/api/v1/customer-invitation-form-style-presets/__proto__');
    expect(proto.status).toBe(404);
  });
});

describe('auth', () => {
  const invitationCalls = [`${LIST}/team/scope-0001`, '/api/v1/invitations/by-group/team/scope-0001', `${LIST}/team/scope-0001/autojoin`];
  const presetCalls = ['/api/v1/customer-invitation-email-presets', '/api/v1/customer-invitation-form-style-presets/fsp-default'];

  it('invitation calls need the right x-api-key', async () => {
    for (const path of invitationCalls) {
      const attempts: Record<string, string>[] = [{}, { 'x-api-key': 'wrong' }, { 'x-api-key': '' }, { authorization: `Bearer ${peer.emulator.accessToken}` }];
      for (const headers of attempts) {
        const answer = await peer.get(path, headers);
        expect(answer.status, `${path} ${JSON.stringify(headers)}`).toBe(401);
        // The SDKs read error bodies that carry only `error`; the emulator answers its 401s that way.
        expect(answer.body).toEqual({ error: 'Missing or invalid x-api-key header' });
      }
    }
    const post = await peer.post('/api/v1/invitations/autojoin', { domains: [], scope: 's', scopeType: 't', componentId: 'c' }, {});
    expect(post.status).toBe(401);
  });

  it('preset calls need the right bearer token', async () => {
    for (const path of presetCalls) {
      const attempts: Record<string, string>[] = [{}, { authorization: 'Bearer wrong' }, { authorization: peer.emulator.accessToken }, { 'x-api-key': peer.emulator.apiKey }];
      for (const headers of attempts) {
        const answer = await peer.get(path, headers);
        expect(answer.status, `${path} ${JSON.stringify(headers)}`).toBe(401);
        expect(answer.body).toEqual({ error: 'Missing or invalid bearer token in the Authorization header' });
      }
    }
  });

  it('the Bearer scheme name is case-insensitive', async () => {
    const answer = await peer.get('/api/v1/customer-invitation-email-presets', { authorization: `bearer ${peer.emulator.accessToken}` });
    expect(answer.status).toBe(200);
  });

  it('a 401 never echoes the key that was sent', async () => {
    const answer = await peer.get(`${LIST}/team/scope-0001`, { 'x-api-key': 'secret-value-123' });
    expect(JSON.stringify(answer.body)).not.toContain('secret-value-123');
  });
});

describe('routing', () => {
  it('unknown paths are 404 and wrong methods 405', async () => {
    expect((await peer.get('/api/v1/nothing')).status).toBe(404);
    expect((await peer.get(`${LIST}/team/scope-0001/extra/more`)).status).toBe(404);
    expect((await peer.get(`${LIST}/team/`)).status).toBe(404);
    const notFound = await peer.get('/api/v2/invitations/autojoin');
    expect(notFound.body).toEqual({ statusCode: 404, message: 'Cannot GET /api/v2/invitations/autojoin', error: 'Not Found' });
    const wrongMethod = await peer.get('/api/v1/invitations/autojoin');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST, DELETE');
    const postToListing = await peer.post(`${LIST}/team/scope-0001`, {});
    expect(postToListing.status).toBe(405);
    expect(postToListing.headers.get('allow')).toBe('GET, DELETE');
  });

  it('bad percent-encoding in a segment is a 400', async () => {
    const answer = await peer.get(`${LIST}/team/%E0%A4%A`);
    expect(answer.status).toBe(400);
    expect((answer.body as { message: string }).message).toContain('not valid percent-encoding');
  });

  it('logs every request with method, raw path and status', async () => {
    const before = peer.emulator.requests.length;
    await peer.get(`${LIST}/team/scope-0001?start=19`);
    await peer.get('/api/v1/nothing');
    expect(peer.emulator.requests.slice(before)).toEqual([
      { method: 'GET', path: `${LIST}/team/scope-0001?start=19`, status: 200 },
      { method: 'GET', path: '/api/v1/nothing', status: 404 },
    ]);
  });

  it('listens on 127.0.0.1 only', () => {
    expect(peer.emulator.url).toBe(`http://127.0.0.1:${peer.emulator.port}`);
    expect(peer.emulator.port).toBeGreaterThan(0);
  });
});
