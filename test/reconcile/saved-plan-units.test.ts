/**
 * src/reconcile/saved-plan.ts step by step: a saved plan read from a file (pin, UTF-8, schema,
 * consistency), the target it was made against (normalized), and, against the emulator over
 * loopback, the staleness checks before any write. Written for its mutation score (docs/testing.md).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { checkPlanTarget, checkSavedPlanCurrent, normalTarget, readSavedPlan } from '../../src/reconcile/saved-plan.js';
import { PlanFileError, planDigest } from '../../src/plan/saved.js';
import { serializePlan } from '../../src/plan/encode.js';
import { PlanTargetError, StalePlanError } from '../../src/plan/refusals.js';
import { emptyData, startEmulator, type Emulator } from '../../src/emulator/index.js';
import { createClient, readLiveState, type ServiceClient } from '../../src/service/index.js';
import type { Plan } from '../../src/plan/types.js';
import { buildPlan } from '../support/plan.js';
import { rejection as refusal } from '../support/rejection.js';
import { git } from '../support/git.js';
import { defined } from '../support/defined.js';
import { BehindCheckoutError, parseAllowBehind } from '../../src/history/behind.js';
import { NOW, policy, samplePlan } from '../plan/fixtures.js';

const dir = mkdtempSync(path.join(tmpdir(), 'saved-plan-units-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function saved(name: string, content: string | Uint8Array): string {
  const file = path.join(dir, name);
  writeFileSync(file, content);
  return file;
}


describe('readSavedPlan', () => {
  const plan = samplePlan();
  const text = serializePlan(plan);
  const digest = planDigest(new TextEncoder().encode(text));

  it('reads the plan back, pinned or not; a pin is read trimmed and in either case', async () => {
    const file = saved('plan.json', text);
    expect(await readSavedPlan(file)).toEqual(plan);
    expect(await readSavedPlan(file, digest)).toEqual(plan);
    expect(await readSavedPlan(file, ` ${digest.toUpperCase()}\n`)).toEqual(plan);
  });

  it('refuses a file whose digest is not the pinned one, naming both', async () => {
    const file = saved('pinned.json', text);
    const other = 'a'.repeat(64);
    const error = await refusal(readSavedPlan(file, other));
    expect(error).toBeInstanceOf(PlanFileError);
    expect(error.message).toBe(`${file} has sha256 ${digest}, not the pinned ${other}: it is not the plan that was reviewed; nothing was written`);
  });

  it.each([['short', 'abc'], ['not hex', 'g'.repeat(64)], ['too long', 'a'.repeat(65)], ['with a prefix', `x${'a'.repeat(64)}`]])('refuses a pin that is not 64 hex characters (%s)', async (_name, pin) => {
    const error = await refusal(readSavedPlan(saved('pin-shape.json', text), pin));
    expect(error).toBeInstanceOf(PlanFileError);
    expect(error.message).toMatch(/planSha256.* needs the 64 hex characters `plan --out` printed$/);
  });

  it('refuses bytes that are not UTF-8', async () => {
    const file = saved('latin1.json', new Uint8Array([0x7b, 0xff, 0x7d]));
    const error = await refusal(readSavedPlan(file));
    expect(error).toBeInstanceOf(PlanFileError);
    expect(error.message).toBe(`${file} is not UTF-8 text, so not a saved plan`);
  });

  it('refuses a document its own checks contradict (a summary that is not its changes’)', async () => {
    const document = JSON.parse(text) as { summary: Record<string, number> };
    const first = defined(Object.keys(document.summary)[0]);
    document.summary[first] = (document.summary[first] ?? 0) + 1;
    const file = saved('inconsistent.json', JSON.stringify(document));
    const error = await refusal(readSavedPlan(file));
    expect(error).toBeInstanceOf(PlanFileError);
    expect(error.message).toContain(file);
  });
});

describe('normalTarget and checkPlanTarget', () => {
  it.each([
    ['https://Inv.Example.com', 'https://inv.example.com'],
    ['https://inv.example.com/', 'https://inv.example.com'],
    ['https://inv.example.com:443/api/v1', 'https://inv.example.com'],
    ['https://inv.example.com/api/v1/', 'https://inv.example.com'],
    ['https://inv.example.com/base//api/v1//', 'https://inv.example.com/base'],
    ['https://inv.example.com/base/', 'https://inv.example.com/base'],
    ['https://inv.example.com/base///api/v1', 'https://inv.example.com/base'],
    ['https://inv.example.com/base///', 'https://inv.example.com/base'],
    ['http://127.0.0.1:8080/', 'http://127.0.0.1:8080'],
    ['  https://inv.example.com  ', 'https://inv.example.com'],
    [' embedded ', 'embedded'],
    ['https://inv.example.com/api/v1/x', 'https://inv.example.com/api/v1/x'],
  ])('%s is %s', (target, normal) => {
    expect(normalTarget(target)).toBe(normal);
  });

  it('passes the same service however written, and refuses another naming both as given', () => {
    expect(() => checkPlanTarget('https://inv.example.com/api/v1/', 'https://INV.example.com')).not.toThrow();
    expect(() => checkPlanTarget('http://127.0.0.1:1000', 'http://127.0.0.1:2000')).toThrow(PlanTargetError);
    expect(() => checkPlanTarget('http://127.0.0.1:1000', 'http://127.0.0.1:2000')).toThrow(
      'the saved plan was made against http://127.0.0.1:1000, but this run targets http://127.0.0.1:2000; nothing was written. Make a plan against http://127.0.0.1:2000 and apply that.',
    );
    expect(() => checkPlanTarget('https://inv.example.com/a', 'https://inv.example.com/b')).toThrow(PlanTargetError);
  });
});

describe('checkSavedPlanCurrent against the emulator', () => {
  const KEY = 'sk-saved-plan-units-5d1e';
  let emulator: Emulator | undefined;
  let client: ServiceClient | undefined;
  afterEach(async () => {
    await client?.close();
    await emulator?.close();
    client = emulator = undefined;
  });

  async function post(scope: string, domains: string[], metadata?: Record<string, string>): Promise<void> {
    const response = await fetch(`${defined(emulator, 'the emulator').url}/api/v1/invitations/autojoin`, {
      method: 'POST',
      headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ scope, scopeType: 'team', componentId: 'cmp_1', domains, ...(metadata ? { metadata } : {}) }),
    });
    if (!response.ok) throw new Error(`POST ${response.status} ${await response.text()}`);
  }

  /** A service holding team/a (a.com, old.com), and a fresh plan against it: update a, create b. */
  async function fresh(): Promise<{ plan: Plan; target: string }> {
    emulator = await startEmulator({ port: 0, data: emptyData(), apiKey: KEY });
    client = createClient({ baseUrl: emulator.url, apiKey: KEY, retry: { maxRetries: 0 } });
    await post('a', ['a.com', 'old.com']);
    const live = await readLiveState(client, [{ scopeType: 'team', scope: 'a' }, { scopeType: 'team', scope: 'b' }], { mode: 'by-scope' });
    const plan = buildPlan({
      desired: [policy('team/a', ['a.com', 'new.com']), policy('team/b', ['b.com'])],
      live,
      target: emulator.url,
      now: NOW,
      takeOwnership: new Set(['team/a']),
    });
    expect(plan.changes.map((change) => change.key)).toEqual(['team/a', 'team/b']);
    return { plan, target: emulator.url };
  }

  it('passes a fresh plan and returns the live state it read', async () => {
    const { plan, target } = await fresh();
    const live = await checkSavedPlanCurrent(defined(client, 'the client'), plan, { target: `${target}/api/v1/`, owner: plan.owner, read: 'by-scope' });
    expect([...live.keys()].sort()).toEqual(['team/a', 'team/b']);
    expect(live.get('team/a')?.domains).toEqual(['a.com', 'old.com']);
    await expect(checkSavedPlanCurrent(defined(client, 'the client'), plan, { target, read: 'by-scope' })).resolves.toBeDefined();
  });

  it('refuses a plan marked redacted, for another service, or for another owner', async () => {
    const { plan, target } = await fresh();
    expect(await refusal(checkSavedPlanCurrent(defined(client, 'the client'), { ...plan, redacted: ['team/a'] }, { target, read: 'by-scope' }))).toBeInstanceOf(PlanFileError);
    expect(await refusal(checkSavedPlanCurrent(defined(client, 'the client'), plan, { target: 'http://127.0.0.1:1', read: 'by-scope' }))).toBeInstanceOf(PlanTargetError);
    const owner = await refusal(checkSavedPlanCurrent(defined(client, 'the client'), plan, { target, owner: 'someone-else', read: 'by-scope' }));
    expect(owner).toBeInstanceOf(PlanFileError);
    expect(owner.message).toContain('"someone-else"');
  });

  it('refuses a plan whose scope moved since, naming only the scopes that moved', async () => {
    const { plan, target } = await fresh();
    await post('a', ['a.com']);
    const stale = await refusal(checkSavedPlanCurrent(defined(client, 'the client'), plan, { target, read: 'by-scope' }));
    expect(stale).toBeInstanceOf(StalePlanError);
    if (!(stale instanceof StalePlanError)) throw new Error('expected a StalePlanError');
    expect(stale.moved).toEqual(['team/a']);
    await post('b', ['x.com']);
    const again = await refusal(checkSavedPlanCurrent(defined(client, 'the client'), plan, { target, read: 'by-scope' }));
    if (!(again instanceof StalePlanError)) throw new Error('expected a StalePlanError');
    expect(again.moved).toEqual(['team/a', 'team/b']);
  });

  it('refuses a change that misstates the live state its fingerprint vouches for', async () => {
    const { plan, target } = await fresh();
    const withChange = (index: number, edit: Partial<Plan['changes'][number]>): Plan => ({ ...plan, changes: plan.changes.map((change, at) => (at === index ? ({ ...change, ...edit } as Plan['changes'][number]) : change)) });
    const message = async (edited: Plan): Promise<string> => {
      const error = await refusal(checkSavedPlanCurrent(defined(client, 'the client'), edited, { target, read: 'by-scope' }));
      expect(error).toBeInstanceOf(PlanFileError);
      return error.message;
    };
    expect(await message(withChange(0, { before: ['a.com'] }))).toBe('the saved plan is not valid: team/a: before is not the live domain list its fingerprint vouches for; nothing was written');
    expect(await message(withChange(1, { before: ['b.com'] }))).toContain('team/b: before is not the live domain list');
    const invitation = defined(defined(plan.changes[0]).autojoin);
    expect(await message(withChange(0, { autojoin: { ...invitation, invitationId: 'inv-other' } }))).toMatch(/^the saved plan is not valid: team\/a: names invitation .*inv-other.*, live is /);
    expect(await message(withChange(1, { autojoin: { ...invitation, invitationId: 'inv-other' } }))).toMatch(/team\/b: names invitation .*inv-other.*, live is none/);
    expect(await message(withChange(0, { fieldChanges: [{ field: 'scopeName', before: 'Old', after: 'New' }] }))).toMatch(/^the saved plan is not valid: team\/a: fieldChanges shows scopeName before as "Old", live is /);
    expect(await message(withChange(0, { fieldChanges: [{ field: 'componentId', before: 'cmp_0', after: 'cmp_1' }] }))).toBe(
      'the saved plan is not valid: team/a: fieldChanges shows componentId before as "cmp_0", live is "cmp_1"; nothing was written',
    );
    // A field change that shows the live value as it is passes.
    await expect(checkSavedPlanCurrent(defined(client, 'the client'), withChange(0, { fieldChanges: [...(defined(plan.changes[0]).fieldChanges ?? []), { field: 'componentId', before: 'cmp_1', after: 'cmp_1' }] }), { target, read: 'by-scope' })).resolves.toBeDefined();
  });

  it('places the plan in this checkout’s history when asked: a scope written from another history is refused unless named', async () => {
    emulator = await startEmulator({ port: 0, data: emptyData(), apiKey: KEY });
    client = createClient({ baseUrl: emulator.url, apiKey: KEY, retry: { maxRetries: 0 } });
    await post('a', ['a.com'], { 'autojoin-sync.owner': 'default', 'autojoin-sync.commit': 'f'.repeat(40) });
    const live = await readLiveState(client, [{ scopeType: 'team', scope: 'a' }], { mode: 'by-scope' });
    const plan = buildPlan({ desired: [policy('team/a', ['a.com', 'new.com'])], live, target: emulator.url, now: NOW });
    expect(plan.changes.map((change) => change.key)).toEqual(['team/a']);
    const repo = mkdtempSync(path.join(dir, 'repo-'));
    git(repo, 'init', '-q', '-b', 'main');
    git(repo, 'commit', '-q', '--allow-empty', '-m', 'one');
    const head = git(repo, 'rev-parse', 'HEAD');
    const context = (allow: string[]) => ({ target: defined(emulator, 'the emulator').url, read: 'by-scope' as const, history: { where: { base: repo, head }, allowBehind: parseAllowBehind(allow) } });
    expect(await refusal(checkSavedPlanCurrent(client, plan, context([])))).toBeInstanceOf(BehindCheckoutError);
    await expect(checkSavedPlanCurrent(client, plan, context(['team/a']))).resolves.toBeDefined();
    await expect(checkSavedPlanCurrent(client, plan, { target: emulator.url, read: 'by-scope' })).resolves.toBeDefined();
  });
});
