/**
 * The client against a small fake on 127.0.0.1 answering call 2b the way the newer public API
 * reference shows it (docs.vortexsoftware.com, "Configure autojoin domains for a target scope"):
 * no `groups` nor `accepts`, `widgetId` present, and `metadata` left out on some answers. Each
 * invitation also has what the Python SDK's model requires (test/support/python-sdk-model.ts:
 * deploymentId, projectId, …), checked before it is served. Written from the reference, not
 * from the emulator.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { planBuilder } from '../../src/plan/plan-builder.js';
import { CANNOT_READ } from '../../src/plan/ownership.js';
import { createClient, readLiveState } from '../../src/service/index.js';
import type { Policy } from '../../src/policy/types.js';
import { parseScopeKey, type ScopeKey } from '../../src/scope.js';
import { pythonAutojoinProblems } from '../support/python-sdk-model.js';
import { useCleanup } from './support/cleanup.js';
import { sendJson } from './support/hostile-server.js';

const closeAfterTest = useCleanup();

/** An autojoin invitation as the newer reference's example shows it, plus projectId (the Python model requires it). */
function referenceInvitation(scope: string, extra: Record<string, unknown>): Record<string, unknown> {
  return {
    id: `inv-${scope}`, accountId: 'account-1', attributes: {}, clickThroughs: 0, configurationAttributes: {}, formSubmissionData: {},
    createdAt: '2026-01-01T00:00:00Z', deactivated: false, deliveryCount: 0, deliveryTypes: [], foreignCreatorId: '',
    invitationType: 'autojoin', modifiedAt: '2026-01-02T00:00:00Z', status: 'sent', target: [], views: 0,
    widgetConfigurationId: 'wc-1', deploymentId: 'deployment-1', projectId: 'project-1', scope, scopeType: 'team',
    expired: false, source: 'api', passThrough: 'eyJhbGciOiJBMjU2R0NNIn0', ...extra,
  };
}

const ANSWERS: Record<string, Record<string, unknown>> = {
  // Shows its metadata (with this owner's marker) and the component as widgetId.
  a: { widgetId: 'cmp_w', metadata: { 'autojoin-sync.owner': 'default' } },
  // No metadata field at all (the Node SDK's InvitationResult has none).
  b: { widgetId: 'cmp_w' },
  // Both names: componentId wins.
  c: { componentId: 'cmp_c', widgetId: 'cmp_old', metadata: {} },
};

async function referenceService(answers: Record<string, Record<string, unknown>>): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    const scope = decodeURIComponent((request.url ?? '').split('/')[6] ?? '');
    const extra = answers[scope];
    const body = extra ? { autojoinDomains: [{ id: `d-${scope}`, domain: `${scope}.example` }], invitation: referenceInvitation(scope, extra) } : { autojoinDomains: [], invitation: null };
    expect(pythonAutojoinProblems(body)).toEqual([]);
    sendJson(response, 200, body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

function policyOf(key: ScopeKey, extra: Partial<Policy> = {}): Policy {
  const ref = parseScopeKey(key);
  return { key, ...ref, componentId: 'cmp_w', domains: [`${ref.scope}.example`], source: { file: `${ref.scope}.yaml`, line: 1, column: 1 }, explicitEmpty: false, ...extra };
}

describe('answers shaped as the newer API reference', () => {
  it('reads componentId from componentId, else widgetId; notes which fields the answers leave out', async () => {
    const service = closeAfterTest(await referenceService(ANSWERS));
    const client = closeAfterTest(createClient({ baseUrl: service.url, apiKey: 'k' }));
    const live = await readLiveState(client, ['a', 'b', 'c'].map((scope) => ({ scopeType: 'team', scope })));
    expect(live.get('team/a')).toMatchObject({ componentId: 'cmp_w', unshown: { groups: true }, metadata: { 'autojoin-sync.owner': 'default' } });
    expect(live.get('team/a')).not.toHaveProperty('scopeName');
    expect(live.get('team/b')).toMatchObject({ componentId: 'cmp_w', unshown: { groups: true, metadata: true } });
    expect(live.get('team/b')).not.toHaveProperty('metadata');
    expect(live.get('team/c')?.componentId).toBe('cmp_c');
  });

  it('plans a componentId change as an update, says once that scopeName cannot be read back, and holds the scope without metadata as unknown ownership', async () => {
    const service = closeAfterTest(await referenceService(ANSWERS));
    const client = closeAfterTest(createClient({ baseUrl: service.url, apiKey: 'k' }));
    const policies = [policyOf('team/a', { scopeName: 'A' }), policyOf('team/b', { componentId: 'cmp_new' }), policyOf('team/c', { componentId: 'cmp_c' })];
    const live = await readLiveState(client, policies);
    const builder = planBuilder({ target: service.url });
    for (const policy of policies) builder.add(policy, live.get(policy.key));
    expect(builder.unknownOwnership()).toEqual(['team/b']);
    const plan = builder.finish();
    expect(plan.notes).toEqual([CANNOT_READ.scopeName]);
    expect(plan.changes.find((change) => change.key === 'team/b')?.fieldChanges).toEqual([{ field: 'componentId', before: 'cmp_w', after: 'cmp_new' }]);
    // team/a: its name is not compared (no groups) and everything else matches.
    expect(plan.changes.map((change) => change.key)).toEqual(['team/b', 'team/c']);
  });

  it('when no answer carries metadata, ownership cannot be read: said once, nothing refused', async () => {
    const service = closeAfterTest(await referenceService({ a: { widgetId: 'cmp_w' }, b: { widgetId: 'cmp_w' } }));
    const client = closeAfterTest(createClient({ baseUrl: service.url, apiKey: 'k' }));
    const policies = [policyOf('team/a', { domains: ['a.example', 'new.example'] }), policyOf('team/b')];
    const live = await readLiveState(client, policies);
    const builder = planBuilder({ target: service.url });
    for (const policy of policies) builder.add(policy, live.get(policy.key));
    expect(builder.unknownOwnership()).toEqual([]);
    const plan = builder.finish();
    expect(plan.notes).toEqual([CANNOT_READ.scopeName, CANNOT_READ.ownership]);
    expect(plan.changes.map((change) => [change.key, change.fieldChanges])).toEqual([['team/a', undefined]]);
  });
});
