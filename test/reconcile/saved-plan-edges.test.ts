/**
 * src/reconcile/saved-plan.ts where test/reconcile/saved-plan-units.test.ts does not reach: the
 * project file a saved plan records (refused before anything reads it when it leaves the
 * repository), the file named in a read failure, the read mode the staleness check reads with, and
 * a componentId field change against a service that shows no component. Written for its mutation
 * score (docs/testing.md).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { checkSavedPlanCurrent, readSavedPlan } from '../../src/reconcile/saved-plan.js';
import { PlanFileError } from '../../src/plan/saved.js';
import { serializePlan } from '../../src/plan/encode.js';
import { emptyData, startEmulator, type Emulator } from '../../src/emulator/index.js';
import { createClient, readLiveState, type ServiceClient } from '../../src/service/index.js';
import type { Plan } from '../../src/plan/types.js';
import { buildPlan } from '../support/plan.js';
import { rejection as refusal } from '../support/rejection.js';
import { defined } from '../support/defined.js';
import { NOW, policy, samplePlan } from '../plan/fixtures.js';
import { sendJson, startHostileServer, type HostileServer } from '../service/support/hostile-server.js';

const dir = mkdtempSync(path.join(tmpdir(), 'saved-plan-edges-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));


describe('readSavedPlan: the project file a plan records', () => {
  /** samplePlan saved with its context recording `recorded` as the project file's path. */
  function recording(name: string, recorded: string): string {
    const document = JSON.parse(serializePlan(samplePlan())) as { context: { projectFile: unknown } };
    document.context.projectFile = { path: recorded, sha256: 'a'.repeat(64) };
    const file = path.join(dir, name);
    writeFileSync(file, JSON.stringify(document));
    return file;
  }

  it('a path inside the repository is read back as recorded', async () => {
    expect((await readSavedPlan(recording('inside.json', 'config/autojoin-sync.yaml'))).context?.projectFile).toEqual({ path: 'config/autojoin-sync.yaml', sha256: 'a'.repeat(64) });
  });

  it.each([
    ['../outside.txt', 'it has a `..`, `.` or empty segment'],
    ['/dev/zero', 'it is not a relative POSIX path'],
  ])('%s is refused, naming the plan, the path and why', async (recorded, why) => {
    const file = recording('outside.json', recorded);
    const error = await refusal(readSavedPlan(file));
    expect(error).toBeInstanceOf(PlanFileError);
    expect(error.message).toBe(`${file} is not a valid plan: /context/projectFile/path ${JSON.stringify(recorded)}: ${why}, so it is not a file inside the repository; nothing was read`);
  });
});

describe('readSavedPlan: a file that cannot be read', () => {
  it('is named as the saved plan', async () => {
    const missing = path.join(dir, 'missing.json');
    expect((await refusal(readSavedPlan(missing))).message).toMatch(new RegExp(`^cannot read saved plan ${missing.replace(/[.*+?^${}()|[\]\\/]/gu, '\\$&')}: `, 'u'));
  });
});

describe('checkSavedPlanCurrent: how the live state is read', () => {
  const KEY = 'sk-saved-plan-edges-7a2c';
  let emulator: Emulator | undefined;
  let proxy: HostileServer | undefined;
  let client: ServiceClient | undefined;
  afterEach(async () => {
    await client?.close();
    await proxy?.close();
    await emulator?.close();
    client = proxy = emulator = undefined;
  });

  async function post(base: string, scope: string, domains: string[]): Promise<void> {
    const response = await fetch(`${base}/api/v1/invitations/autojoin`, {
      method: 'POST',
      headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ scope, scopeType: 'team', componentId: 'cmp_1', domains }),
    });
    if (!response.ok) throw new Error(`POST ${response.status} ${await response.text()}`);
  }

  /** A plan updating team/a (a.com → a.com, new.com) against the service at `url`. */
  async function planAgainst(url: string): Promise<Plan> {
    client = createClient({ baseUrl: url, apiKey: KEY, retry: { maxRetries: 0 } });
    const live = await readLiveState(client, [{ scopeType: 'team', scope: 'a' }], { mode: 'by-scope' });
    const plan = buildPlan({ desired: [policy('team/a', ['a.com', 'new.com'])], live, target: url, now: NOW, takeOwnership: new Set(['team/a']) });
    expect(plan.changes.map((change) => change.key)).toEqual(['team/a']);
    return plan;
  }

  it('reads in the run’s read mode', async () => {
    emulator = await startEmulator({ port: 0, data: emptyData(), apiKey: KEY });
    await post(emulator.url, 'a', ['a.com']);
    const plan = await planAgainst(emulator.url);
    const seen = emulator.requests.length;
    await checkSavedPlanCurrent(defined(client, 'the client'), plan, { target: emulator.url, read: 'by-group' });
    const paths = emulator.requests.slice(seen).map((request) => request.path);
    expect(paths.some((called) => called.includes('/invitations/by-group/'))).toBe(true);
  });

  /** Strips every componentId and widgetId from the emulator's answers: a service that shows no component. */
  function withoutComponent(value: unknown): unknown {
    if (Array.isArray(value)) return value.map(withoutComponent);
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'componentId' && key !== 'widgetId').map(([key, inner]) => [key, withoutComponent(inner)]));
  }

  it('a componentId field change is not held to a service that shows no component; every other field still is', async () => {
    const service = await startEmulator({ port: 0, data: emptyData(), apiKey: KEY });
    emulator = service;
    await post(service.url, 'a', ['a.com']);
    proxy = await startHostileServer(async (request, response) => {
      const answer = await fetch(`${service.url}${request.url ?? ''}`, { method: request.method, headers: { 'x-api-key': KEY } });
      sendJson(response, answer.status, withoutComponent(await answer.json()));
    });
    const plan = await planAgainst(proxy.url);
    const change = defined(plan.changes[0]);
    const shown = (extra: NonNullable<typeof change.fieldChanges>): Plan => ({ ...plan, changes: [{ ...change, fieldChanges: [...(change.fieldChanges ?? []), ...extra] }] });
    const context = { target: proxy.url, read: 'by-scope' as const };
    const component = { field: 'componentId' as const, before: 'cmp_0', after: 'cmp_1' };
    await expect(checkSavedPlanCurrent(defined(client, 'the client'), shown([component]), context)).resolves.toBeDefined();
    const name = await refusal(checkSavedPlanCurrent(defined(client, 'the client'), shown([component, { field: 'scopeName', before: 'Old', after: 'New' }]), context));
    expect(name).toBeInstanceOf(PlanFileError);
    expect(name.message).toMatch(/^the saved plan is not valid: team\/a: fieldChanges shows scopeName before as "Old", live is /u);
  });
});
