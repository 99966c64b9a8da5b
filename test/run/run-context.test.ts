/**
 * The run context in-process (issue 31): resolveSettings (the one resolution both front ends
 * call), makePlan and applyPlan over real git repositories in temp dirs and the emulator over
 * loopback. The same cases run as the spawned CLI in test/e2e/run-context.e2e.test.ts.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makePlan } from '../../src/reconcile/index.js';
import { applyCommand } from '../../src/commands/apply-command.js';
import { resolveSettings, type RunSettings } from '../../src/run/settings.js';
import { parsePlan, serializePlan, type Plan } from '../../src/plan/index.js';
import { ancestryOf } from '../../src/git/ancestry.js';
import { commitAll, git } from '../support/git.js';
import { writeFiles } from '../e2e/support.js';
import { startPeer, type Peer } from '../service/support/peer.js';

let peer: Peer | undefined;
let top: string | undefined;
afterEach(async () => {
  await peer?.close();
  if (top) await rm(top, { recursive: true, force: true });
  peer = top = undefined;
});

const policy = (scope: string, domains: string[]): string => `scope: ${scope}\nscopeType: team\ncomponentId: c\ndomains:\n${domains.map((d) => `  - ${d}\n`).join('')}`;

async function estate(files: Record<string, string>): Promise<string> {
  top = await mkdtemp(path.join(os.tmpdir(), 'autojoin-context-'));
  await writeFiles(top, files);
  return top;
}

function context(cwd: string, paths: string[] = [], saved?: Plan, file = 'plan.json'): Promise<RunSettings> {
  return resolveSettings({
    cwd,
    paths,
    flags: {},
    env: { AUTOJOIN_NOW: '2026-03-01' },
    report: () => undefined,
    ...(saved?.context ? { saved: { context: saved.context, file } } : {}),
  });
}

async function planIn(settings: RunSettings, client: Peer['client']): Promise<Plan> {
  const made = await makePlan({ settings, client });
  if (!made.plan) throw new Error(`no plan: ${JSON.stringify(made.load.diagnostics)}`);
  return made.plan;
}

/** Through the command layer both front ends call (src/commands/apply-command.ts). */
function applyIn(settings: RunSettings, client: Peer['client'], plan: Plan, options: { saved?: boolean; allowBehind?: string[] } = {}) {
  return applyCommand({ context: settings, client, plan, saved: options.saved === true, takeOwnership: new Set(), allowBehind: options.allowBehind ?? [] });
}

function live(key: string): string[] | null {
  const stored = peer?.emulator.data().scopes[key]?.autojoin;
  return stored && !stored.invitation.deactivated ? stored.domains.map((d) => d.domain).sort() : null;
}

describe('a saved plan keeps its context', () => {
  it('apply --plan keeps the safety limits of the plan project file, applied from the repository root', async () => {
    peer = await startPeer();
    const dir = await estate({ 'pol/autojoin-sync.yaml': 'safety:\n  maxRemovals: 1\n', 'pol/a.autojoin.yaml': policy('a', ['keep.example']) });
    commitAll(dir);
    await peer.client.syncAutojoin({ scope: 'a', scopeType: 'team', domains: ['keep.example', 'x1.example', 'x2.example'], componentId: 'c' });
    const plan = await planIn(await context(dir, ['pol']), peer.client);
    expect(plan.context?.projectFile?.path).toBe('pol/autojoin-sync.yaml');
    const saved = parsePlan(serializePlan(plan));
    const fromRoot = await context(dir, [], saved);
    expect(fromRoot.limits.maxRemovals).toBe(1);
    await expect(applyIn(fromRoot, peer.client, saved, { saved: true })).rejects.toThrow(/removes 2 domains/u);
    expect(live('team/a')).toHaveLength(3);
  });

  it('refuses an edited project file, naming it and both digests', async () => {
    peer = await startPeer();
    const dir = await estate({ 'pol/autojoin-sync.yaml': 'owner: team-a\n', 'pol/a.autojoin.yaml': policy('a', ['a.example']) });
    commitAll(dir);
    const plan = parsePlan(serializePlan(await planIn(await context(dir, ['pol']), peer.client)));
    await writeFiles(dir, { 'pol/autojoin-sync.yaml': 'owner: team-b\n' });
    const recorded = plan.context?.projectFile?.sha256 ?? '';
    await expect(context(path.join(dir, 'pol'), [], plan)).rejects.toThrow(new RegExp(`pol/autojoin-sync.yaml \\(sha256 ${recorded}\\), but it has sha256 [0-9a-f]{64} here`, 'u'));
  });
});

describe('a saved plan in a repository of several project files', () => {
  it('applies from the repository root under the project file it recorded, not the whole repository', async () => {
    peer = await startPeer();
    const dir = await estate({
      'teams/a/autojoin-sync.yaml': 'owner: team-a\nsafety:\n  maxRemovals: 5\n',
      'teams/a/x.autojoin.yaml': policy('x', ['x.example']),
      'teams/b/autojoin-sync.yaml': 'owner: team-b\n',
      'teams/b/y.autojoin.yaml': policy('y', ['y.example']),
    });
    commitAll(dir);
    await expect(context(dir, ['.'])).rejects.toThrow(/takes one project at a time, and the paths of this run hold 2/u);
    const plan = parsePlan(serializePlan(await planIn(await context(dir, ['teams/a']), peer.client)));
    const fromRoot = await context(dir, [], plan);
    expect(fromRoot.owner).toBe('team-a');
    expect(fromRoot.limits.maxRemovals).toBe(5);
    await applyIn(fromRoot, peer.client, plan, { saved: true });
    expect(live('team/x')).toEqual(['x.example']);
    expect(live('team/y')).toBeNull();
  });
});

describe('today is the context\'s', () => {
  it('an entry expires by the context today (AUTOJOIN_NOW), not by the clock', async () => {
    peer = await startPeer();
    const dir = await estate({ 'a.autojoin.yaml': 'scope: a\nscopeType: team\ncomponentId: c\ndomains:\n  - a.example\n  - {domain: later.example, expires: 2026-06-01, reason: trial}\n' });
    commitAll(dir);
    const settings = await context(dir);
    expect(settings.today).toBe('2026-03-01');
    const plan = await planIn({ ...settings, today: '2026-03-01' }, peer.client);
    expect(plan.changes[0]?.after).toEqual(['a.example', 'later.example']);
    expect(plan.context?.today).toBe('2026-03-01');
    const later = await planIn({ ...settings, today: '2026-07-01' }, peer.client);
    expect(later.changes[0]?.after).toEqual(['a.example']);
  });
});

describe('the project file of each policy file', () => {
  it('plan . at a monorepo root uses the project file beside the policies', async () => {
    const dir = await estate({ 'infra/autojoin/autojoin-sync.yaml': 'owner: platform\n', 'infra/autojoin/a.autojoin.yaml': policy('a', ['a.example']) });
    commitAll(dir);
    const settings = await context(dir, ['.']);
    expect(settings.owner).toBe('platform');
    expect(settings.projectRecord?.path).toBe('infra/autojoin/autojoin-sync.yaml');
  });

  it('a hint naming a project setting names the project file used', async () => {
    peer = await startPeer();
    const dir = await estate({ 'infra/autojoin/autojoin-sync.yaml': 'owner: platform\n', 'infra/autojoin/a.autojoin.yaml': policy('a', ['a.example']) });
    commitAll(dir);
    await peer.client.syncAutojoin({ scope: 'a', scopeType: 'team', domains: ['old.example'], componentId: 'c', metadata: { 'autojoin-sync.owner': 'other' } });
    await expect(planIn(await context(dir, ['.']), peer.client)).rejects.toThrow('set `owner` in infra/autojoin/autojoin-sync.yaml if this repository is that owner');
  });

  it('two projects under one path: a command of one project at a time names each and how to run it', async () => {
    const dir = await estate({ 'a/autojoin-sync.yaml': 'owner: a\n', 'a/x.autojoin.yaml': policy('x', ['x.example']), 'y.autojoin.yaml': policy('y', ['y.example']) });
    commitAll(dir);
    await expect(resolveSettings({ cwd: dir, paths: ['.'], flags: {}, env: { AUTOJOIN_NOW: '2026-03-01' }, report: () => undefined, command: 'plan' })).rejects.toThrow(
      'plan takes one project at a time, and the paths of this run hold 2: a/autojoin-sync.yaml (1 policy file), no project file under . (1 policy file); run plan once per project: project: a/autojoin-sync.yaml; the paths y.autojoin.yaml',
    );
    const both = await resolveSettings({ cwd: dir, paths: ['.'], flags: {}, env: { AUTOJOIN_NOW: '2026-03-01' }, report: () => undefined, manyProjects: true });
    expect(both.projects.map((one) => [one.name, one.config.owner])).toEqual([['a/autojoin-sync.yaml', 'a'], ['.', undefined]]);
    expect(both.owner).toBe('default');
  });

  it('--project reads the files of its project alone, with one notice counting the others, from where the run started', async () => {
    const dir = await estate({
      'a/autojoin-sync.yaml': 'owner: a\n',
      'a/x.autojoin.yaml': policy('x', ['x.example']),
      'a/nested/autojoin-sync.yaml': 'owner: nested\n',
      'a/nested/n.autojoin.yaml': policy('n', ['n.example']),
      'b/c/y.autojoin.yaml': policy('y', ['y.example']),
    });
    commitAll(dir);
    const notices: string[] = [];
    const settings = (cwd: string, paths: string[], projectFile: string, saved?: Plan) =>
      resolveSettings({ cwd, paths, flags: {}, env: { AUTOJOIN_NOW: '2026-03-01' }, report: () => undefined, projectFile, notice: (message) => notices.push(message), ...(saved?.context ? { saved: { context: saved.context, file: 'plan.json' } } : {}) });
    const fromRoot = await settings(dir, ['.'], 'a/autojoin-sync.yaml');
    // a holds another project (a/nested): its own files are named, not its directory.
    expect(fromRoot.paths).toEqual(['a/x.autojoin.yaml']);
    expect(fromRoot.owner).toBe('a');
    expect(notices).toEqual(['--project a/autojoin-sync.yaml: 2 policy files of other projects skipped']);
    // It no longer overrides a nearer project file: the nested project is its own.
    const nested = await settings(path.join(dir, 'a'), ['..'], 'nested/autojoin-sync.yaml');
    expect(nested.paths).toEqual(['a/nested']);
    expect(nested.owner).toBe('nested');
    await expect(settings(dir, ['b'], 'a/autojoin-sync.yaml')).rejects.toThrow('--project a/autojoin-sync.yaml: no policy file under b has it as its nearest project file (theirs: none); nothing was read');
    const plan = await planIn(await context(dir, ['a/x.autojoin.yaml']), (peer = await startPeer()).client);
    await expect(settings(dir, [], 'a/autojoin-sync.yaml', plan)).rejects.toThrow('project selects the policy files a run reads; a saved plan (planFile) records its own project file: leave project out');
  });
});

describe('behind and foreign checkouts', () => {
  it('a stale clone is refused, every behind scope listed, unless allowed', async () => {
    peer = await startPeer();
    const dir = await estate({ 'origin/a.autojoin.yaml': policy('a', ['a.example']), 'origin/b.autojoin.yaml': policy('b', ['b.example']) });
    const origin = path.join(dir, 'origin');
    commitAll(origin);
    const stale = path.join(dir, 'stale');
    git(dir, 'clone', '-q', origin, stale);
    await writeFiles(origin, { 'a.autojoin.yaml': policy('a', ['a.example', 'n.example']), 'b.autojoin.yaml': policy('b', ['b.example', 'n.example']) });
    git(origin, 'commit', '-q', '-am', 'newer');
    const fresh = await context(origin);
    await applyIn(fresh, peer.client, await planIn(fresh, peer.client));
    const old = await context(stale);
    const plan = await planIn(old, peer.client);
    expect(plan.behind?.map((scope) => scope.key)).toEqual(['team/a', 'team/b']);
    await expect(applyIn(old, peer.client, plan)).rejects.toThrow(/team\/a .*team\/b .*not contain/u);
    expect(live('team/a')).toEqual(['a.example', 'n.example']);
    await applyIn(old, peer.client, plan, { allowBehind: ['team/*'] });
    expect(live('team/a')).toEqual(['a.example']);
  });

  it('--allow-behind names only the scopes it matches: team/a allowed, team/b still refuses the run, and nothing is written', async () => {
    peer = await startPeer();
    const dir = await estate({ 'origin/a.autojoin.yaml': policy('a', ['a.example']), 'origin/b.autojoin.yaml': policy('b', ['b.example']) });
    const origin = path.join(dir, 'origin');
    commitAll(origin);
    const stale = path.join(dir, 'stale');
    git(dir, 'clone', '-q', origin, stale);
    await writeFiles(origin, { 'a.autojoin.yaml': policy('a', ['a.example', 'n.example']), 'b.autojoin.yaml': policy('b', ['b.example', 'n.example']) });
    git(origin, 'commit', '-q', '-am', 'newer');
    const fresh = await context(origin);
    await applyIn(fresh, peer.client, await planIn(fresh, peer.client));
    const old = await context(stale);
    const plan = await planIn(old, peer.client);
    const refused = (await applyIn(old, peer.client, plan, { allowBehind: ['team/a'] }).catch((error: unknown) => error)) as Error;
    expect(refused.message).toMatch(/^team\/b \(commit [0-9a-f]{12}\): written from a commit this checkout does not contain/u);
    expect(refused.message).not.toContain('team/a (commit');
    expect([live('team/a'), live('team/b')]).toEqual([['a.example', 'n.example'], ['b.example', 'n.example']]);
    await applyIn(old, peer.client, plan, { allowBehind: ['team/a', 'team/b'] });
    expect([live('team/a'), live('team/b')]).toEqual([['a.example'], ['b.example']]);
  });

  it('apply --plan places a saved plan in the applying checkout history again: a stale clone plan whose behind list was edited away is still refused as behind', async () => {
    peer = await startPeer();
    const dir = await estate({ 'origin/a.autojoin.yaml': policy('a', ['a.example']) });
    const origin = path.join(dir, 'origin');
    commitAll(origin);
    const stale = path.join(dir, 'stale');
    git(dir, 'clone', '-q', origin, stale);
    await writeFiles(origin, { 'a.autojoin.yaml': policy('a', ['a.example', 'n.example']) });
    git(origin, 'commit', '-q', '-am', 'newer');
    const fresh = await context(origin);
    await applyIn(fresh, peer.client, await planIn(fresh, peer.client));
    // The stale clone plans (its plan lists team/a as behind), saves the plan and edits the claim away.
    const old = await context(stale);
    const made = await planIn(old, peer.client);
    expect(made.behind?.map((scope) => scope.key)).toEqual(['team/a']);
    const saved = parsePlan(serializePlan({ ...made, behind: [] }));
    const applying = await context(stale, [], saved);
    await expect(applyIn(applying, peer.client, saved, { saved: true })).rejects.toThrow(/^team\/a \(commit [0-9a-f]{12}\): written from a commit this checkout does not contain/u);
    expect(live('team/a')).toEqual(['a.example', 'n.example']);
  });

  it('two repositories on the default owner never clear each other scopes', async () => {
    peer = await startPeer();
    const dir = await estate({ 'a/p.autojoin.yaml': policy('payroll', ['a.example']), 'a/o.autojoin.yaml': policy('other', ['o.example']), 'b/p.autojoin.yaml': policy('payroll', ['b.example']) });
    const [repoA, repoB] = [path.join(dir, 'a'), path.join(dir, 'b')];
    commitAll(repoA);
    commitAll(repoB);
    const a = await context(repoA);
    await applyIn(a, peer.client, await planIn(a, peer.client));
    git(repoA, 'rm', '-q', 'p.autojoin.yaml');
    git(repoA, 'commit', '-q', '-m', 'payroll leaves');
    const b = await context(repoB);
    await applyIn(b, peer.client, await planIn(b, peer.client), { allowBehind: ['team/payroll'] });
    const again = await context(repoA);
    const plan = await planIn(again, peer.client);
    expect(plan.changes).toEqual([]);
    expect(plan.notManagedHere).toMatchObject([{ key: 'team/payroll', owner: 'default', commit: git(repoB, 'rev-parse', 'HEAD') }]);
    await applyIn(again, peer.client, plan);
    expect(live('team/payroll')).toEqual(['b.example']);
  });

  it('a scope marked by owner default from this history moves to the project file owner without a take-over', async () => {
    peer = await startPeer();
    const dir = await estate({ 'a.autojoin.yaml': policy('a', ['a.example']) });
    commitAll(dir);
    const before = await context(dir);
    await applyIn(before, peer.client, await planIn(before, peer.client));
    await writeFiles(dir, { 'autojoin-sync.yaml': 'owner: platform\n' });
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'owner');
    const after = await context(dir);
    const plan = parsePlan(serializePlan(await planIn(after, peer.client)));
    expect(plan.ownerMoves).toEqual(['team/a']);
    await applyIn(await context(dir, [], plan), peer.client, plan, { saved: true });
    expect(peer.emulator.data().scopes['team/a']?.autojoin?.invitation.metadata?.['autojoin-sync.owner']).toBe('platform');
  });

  it('checks every marker commit of a run in one git walk: ancestors, others, and garbage', async () => {
    const dir = await estate({ 'a.txt': '1\n' });
    const first = commitAll(dir);
    git(dir, 'checkout', '-q', '-b', 'side');
    git(dir, 'commit', '-q', '--allow-empty', '-m', 'side');
    const side = git(dir, 'rev-parse', 'HEAD');
    git(dir, 'checkout', '-q', 'main');
    git(dir, 'commit', '-q', '--allow-empty', '-m', 'main');
    const head = git(dir, 'rev-parse', 'HEAD');
    const answer = await ancestryOf(dir, [first, head, side, 'f'.repeat(40), 'not-a-commit']);
    expect([...answer.notAncestors].sort()).toEqual(['f'.repeat(40), 'not-a-commit', side].sort());
    expect(answer.shallow).toBe(false);
  });
});


