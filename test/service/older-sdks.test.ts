/**
 * The client, through plan and apply, against a small fake on 127.0.0.1 that answers the way the
 * older SDKs' types expect the service to: invitations carrying `widgetId` (no componentId),
 * groups whose `id` is the scope (no groupId), listings answered whole in one page (no SDK sends
 * `start`), `invitation: null` once a scope's list is cleared, and errors as `{error}` alone.
 * Written from those types, not from the emulator, so a belief the two share cannot hide here.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyPlan, makePlan } from '../../src/reconcile/index.js';
import { settingsIn } from '../../src/run/settings.js';
import { createClient, type ReadMode, type ServiceClient } from '../../src/service/index.js';
import { useCleanup } from './support/cleanup.js';
import { sendJson } from './support/hostile-server.js';
import { FAST_RETRY } from './support/peer.js';

const closeAfterTest = useCleanup();
let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

interface OldScope {
  domains: string[];
  widgetId: string;
  name: string;
  metadata?: Record<string, unknown>;
}

/** An invitation as the older SDKs' InvitationResult describes it. */
function oldInvitation(scope: string, stored: OldScope): Record<string, unknown> {
  return {
    id: `inv-${scope}`,
    accountId: 'acc',
    invitationType: 'autojoin',
    status: 'sent',
    deactivated: false,
    widgetId: stored.widgetId,
    widgetConfigurationId: 'wc-1',
    target: [],
    groups: [{ id: scope, type: 'team', name: stored.name }],
    createdAt: '2025-01-01T00:00:00.000Z',
    metadata: stored.metadata ?? {},
  };
}

interface OlderService {
  url: string;
  /** Each request's URL, in order. */
  requests: string[];
  close(): Promise<void>;
}

/** The older service: `invitation: null` without domains, whole listings, `{error}` bodies. */
async function olderService(scopes: Record<string, OldScope>): Promise<OlderService> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(request.url ?? '');
    void bodyOf(request).then((body) => answer(scopes, request, body, response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = (): Promise<void> => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  };
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, close };
}

function answer(scopes: Record<string, OldScope>, request: IncomingMessage, body: string, response: ServerResponse): void {
  const [, , , , kind, , scope = '', tail] = (request.url ?? '').split('?')[0]?.split('/') ?? [];
  if (request.method === 'POST') {
    sync(scopes, JSON.parse(body) as Record<string, unknown>, response);
    return;
  }
  const stored = scopes[decodeURIComponent(scope)];
    const active = stored !== undefined && stored.domains.length > 0;
  if (tail === 'autojoin') {
    sendJson(response, 200, { autojoinDomains: active ? stored.domains.map((domain, i) => ({ id: `d${i}`, domain })) : [], invitation: active ? oldInvitation(scope, stored) : null });
  } else if (kind === 'by-scope' || kind === 'by-group') {
    const ordinary = Array.from({ length: 45 }, (_, i) => ({ id: `o-${scope}-${i}`, invitationType: 'single_use', widgetId: 'w', target: [{ type: 'email', value: `p${i}@x.example` }] }));
    sendJson(response, 200, { invitations: active ? [...ordinary, oldInvitation(scope, stored)] : ordinary });
  } else sendJson(response, 404, { error: 'Not Found' });
}

function sync(scopes: Record<string, OldScope>, body: Record<string, unknown>, response: ServerResponse): void {
  const scope = String(body.scope);
  if (scope === 'locked') {
    sendJson(response, 422, { error: 'Scope locked is managed elsewhere' });
    return;
  }
  const domains = (body.domains as string[]).slice().sort();
  const stored: OldScope = {
    domains,
    widgetId: String(body.componentId ?? body.widgetId),
    name: typeof body.scopeName === 'string' ? body.scopeName : (scopes[scope]?.name ?? scope),
    metadata: (body.metadata as Record<string, unknown> | undefined) ?? scopes[scope]?.metadata,
  };
  scopes[scope] = stored;
  sendJson(response, 200, { autojoinDomains: domains.map((domain, i) => ({ id: `d${i}`, domain })), invitation: domains.length > 0 ? oldInvitation(scope, stored) : null });
}

function bodyOf(request: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (text += chunk));
    request.on('end', () => resolve(text));
  });
}

const policy = (scope: string, domains: string[]): string =>
  `scope: ${scope}\nscopeType: team\ncomponentId: w-1\ndomains:\n${domains.map((domain) => `  - ${domain}\n`).join('') || '  []\n'}`.replace('domains:\n  []', 'domains: []');

async function policies(files: Record<string, string>): Promise<string> {
  dir = await mkdtemp(path.join(os.tmpdir(), 'autojoin-older-sdks-'));
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
  return dir;
}

async function plan(client: ServiceClient, cwd: string, listing?: ReadMode) {
  const { plan: made } = await makePlan({ settings: settingsIn(cwd, { flags: { read: listing } }), client });
  if (!made) throw new Error('no plan');
  return made;
}

describe('against a service that answers as the older SDKs expect', () => {
  it.each([
    ['call 2b alone (the default)', undefined],
    ['the by-scope listing', 'by-scope'],
    ['the by-group listing', 'by-group'],
  ] as const)('plans and applies every kind of change, read by %s', async (_name, listing) => {
    const scopes: Record<string, OldScope> = {
      kept: { domains: ['kept.example'], widgetId: 'w-1', name: 'kept' },
      grown: { domains: ['grown.example'], widgetId: 'w-1', name: 'grown' },
      gone: { domains: ['gone.example'], widgetId: 'w-1', name: 'gone' },
      cleared: { domains: [], widgetId: 'w-1', name: 'cleared' },
    };
    const server = closeAfterTest(await olderService(scopes));
    const client = closeAfterTest(createClient({ baseUrl: server.url, apiKey: 'k-123456', retry: FAST_RETRY }));
    const cwd = await policies({
      'kept.autojoin.yaml': policy('kept', ['kept.example']),
      'grown.autojoin.yaml': policy('grown', ['grown.example', 'more.example']),
      'gone.autojoin.yaml': policy('gone', []),
      // A scope cleared before is no autojoin (invitation: null): a create, not an update.
      'cleared.autojoin.yaml': policy('cleared', ['back.example']),
    });
    const made = await plan(client, cwd, listing);
    // `kept` carries no ownership marker yet: its first write marks it (an update of owner only).
    expect(made.changes.map((change) => `${change.kind} ${change.key}`).sort()).toEqual(['clear team/gone', 'create team/cleared', 'update team/grown', 'update team/kept']);
    const report = await applyPlan({ client, plan: made, settings: settingsIn(cwd, { flags: { read: listing } }) });
    expect(report.failed).toEqual([]);
    expect(report.applied.map((scope) => scope.key).sort()).toEqual(['team/cleared', 'team/gone', 'team/grown', 'team/kept']);
    expect(scopes.gone?.domains).toEqual([]);
    expect((await plan(client, cwd, listing)).changes).toEqual([]);
    // Each listing was read whole, in one request a scope.
    if (listing !== undefined) expect(server.requests.filter((url) => url.includes(`/${listing}/`) && !url.endsWith('/autojoin') && !url.includes('start=0'))).toEqual([]);
  });

  it("reports a refusal given as {error} alone with the service's reason, and applies the rest", async () => {
    const scopes: Record<string, OldScope> = {};
    const server = closeAfterTest(await olderService(scopes));
    const client = closeAfterTest(createClient({ baseUrl: server.url, apiKey: 'k-123456', retry: FAST_RETRY }));
    const cwd = await policies({ 'a.autojoin.yaml': policy('locked', ['l.example']), 'b.autojoin.yaml': policy('open', ['o.example']) });
    const report = await applyPlan({ client, plan: await plan(client, cwd), settings: settingsIn(cwd) });
    expect(report.applied.map((scope) => scope.key)).toEqual(['team/open']);
    expect(report.failed).toEqual([expect.objectContaining({ key: 'team/locked', reason: expect.stringContaining('422 Scope locked is managed elsewhere') })]);
  });
});
