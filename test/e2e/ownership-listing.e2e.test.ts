/**
 * Every read mode applies the ownership guard (the contract's "Ownership"): with `--read by-scope`
 * or `by-group`, a listing that omits `metadata` no longer skips the check. The marker is taken
 * from call 2b, so a scope another owner marked is not written: apply stops with exit 1 naming
 * that owner, and the service receives no write.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, policy, tempProject, type TempProject } from './support.js';

const KEY = 'k-listing-owner-123';
let server: http.Server;
let url: string;
const writes: string[] = [];
let project: TempProject;

beforeAll(async () => {
  const invitation = { id: 'aj-acme', invitationType: 'autojoin', deactivated: false, groups: [{ id: 'acme', type: 'team', name: 'Acme' }], target: [{ type: 'domain', value: 'acme.example' }] };
  const marked = { ...invitation, metadata: { 'autojoin-sync.owner': 'infra', 'autojoin-sync.digest': 'd'.repeat(64) } };
  server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const path = (request.url ?? '').split('?')[0] ?? '';
      if (request.method !== 'GET') writes.push(`${request.method ?? ''} ${path}`);
      const body = request.method !== 'GET' ? marked : path.endsWith('/autojoin') ? { autojoinDomains: [{ id: 'd1', domain: 'acme.example' }], invitation: marked } : { invitations: [invitation] };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  project = await tempProject({ 'policies/acme.autojoin.yaml': policy('acme', ['acme.example', 'new.example']) });
});

afterAll(async () => {
  await project.cleanup();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('a listing without metadata: another owner\'s scope is not written', () => {
  it.each(['by-scope', 'by-group'])('apply --read %s stops with exit 1 naming the owner, and writes nothing', async (mode) => {
    const apply = await cli(['apply', 'policies', '--yes', '--read', mode], { cwd: project.dir, env: { AUTOJOIN_BASE_URL: url, AUTOJOIN_API_KEY: KEY } });
    expect(apply.code, apply.stdout + apply.stderr).toBe(1);
    expect(apply.stdout + apply.stderr).toContain('infra');
    expect(writes).toEqual([]);
  });
});
