import { request, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIST, startPeer, type TestPeer } from './helpers.js';

let peer: TestPeer;
beforeAll(async () => {
  peer = await startPeer();
});
afterAll(() => peer.emulator.close());

/** GET with the path sent byte for byte (fetch's URL parser would fold `%2E%2E` segments). */
function rawGet(path: string): Promise<{ status: number; body: unknown; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: peer.emulator.port, path, headers: { 'x-api-key': peer.emulator.apiKey } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text), headers: res.headers }));
    });
    req.on('error', reject).end();
  });
}

/** Call 2b's answer for a scope without autojoin. */
const NONE = { autojoinDomains: [], invitation: null };

const segment = (value: string) => (value === '.' || value === '..' ? value.replaceAll('.', '%2E') : encodeURIComponent(value));

describe('path segments', () => {
  const scopes = ['a/b', '../x', '..', '.', 'a b', 'ünï', '%2F', 'q?x=1', 'h#frag', 'x/../../y'];
  const domainOf = (scope: string): string => `d${scopes.indexOf(scope)}.example.org`;

  // Every test reads these, in whatever order the tests run.
  beforeAll(async () => {
    for (const scope of scopes) expect((await peer.sync({ domains: [domainOf(scope)], scope })).status).toBe(200);
  });

  it.each(scopes)('scope %j stays one scope, in every call', async (scope) => {
    const domain = domainOf(scope);
    const state = await rawGet(`${LIST}/team/${segment(scope)}/autojoin`);
    expect(state.status).toBe(200);
    expect(state.body).toMatchObject({ autojoinDomains: [{ domain }], invitation: { scope, scopeType: 'team' } });
    const listing = await rawGet(`${LIST}/team/${segment(scope)}`);
    expect(listing.body).toMatchObject({ invitations: [{ scope, groups: [{ groupId: scope, type: 'team' }] }] });
    const byGroup = await rawGet(`/api/v1/invitations/by-group/team/${segment(scope)}`);
    expect(byGroup.body).toEqual(listing.body);
  });

  it('did not create neighbouring scopes', async () => {
    for (const scope of ['a', 'b', 'x', 'y']) {
      expect((await rawGet(`${LIST}/team/${scope}/autojoin`)).body).toEqual(NONE);
    }
    const keys = Object.keys(peer.emulator.data().scopes)
      .filter((key) => key !== 'team/b/c') // the encoded-slash test's own scope
      .sort();
    expect(keys).toEqual(scopes.map((scope) => `team/${scope}`).sort());
  });

  it('an encoded slash in the type is one segment too, and never finds another scope', async () => {
    await peer.sync({ domains: ['z.example.org'], scope: 'b/c', scopeType: 'team' });
    expect((await rawGet(`${LIST}/team%2Fb/c/autojoin`)).body).toEqual(NONE);
    expect((await rawGet(`${LIST}/team/b%2Fc/autojoin`)).body).toMatchObject({ autojoinDomains: [{ domain: 'z.example.org' }] });
    expect((await rawGet(`${LIST}/team/b/c/autojoin`)).status).toBe(404); // no such route: one segment too many
  });

  it('the by-group successor link keeps every scope in one segment, dot segments too', async () => {
    for (const scope of ['..', '.', 'a/b']) {
      const byGroup = await rawGet(`/api/v1/invitations/by-group/team/${segment(scope)}`);
      expect(byGroup.headers.link).toBe(`<${LIST}/team/${segment(scope)}>; rel="successor-version"`);
    }
  });

  it('decodes once: %252F is the literal text %2F', async () => {
    const state = await rawGet(`${LIST}/team/%252F/autojoin`);
    expect(state.body).toMatchObject({ invitation: { scope: '%2F' } });
  });
});
