/**
 * The promise of pruning, as a property over real git repositories: for random histories
 * (branches, a merged side branch, edits, scope-type changes, moves and renames, deletes and
 * re-adds, reverts) and each way GitHub merges a pull request (merge commit, squash, rebase,
 * fast-forward), the clears of `apply` after the merge are a subset of the clears the plan on the
 * pull request's test-merge commit showed. Git history alone: every scope any version could name
 * is live and marked with this owner: the scopes this repository's history declared from that
 * history (a commit of main), every other one from another repository's history (a commit this
 * checkout does not contain), so nothing but the history decides what is cleared.
 *
 * `defaults.scopeType` may change anywhere, on the pull request too, and such a change may be
 * reverted: "Rebase and merge" then replays versions that neither side ever had, and the scopes
 * they name are another repository's unless this history wrote them, which the marker's commit
 * says (design, "Behind and foreign checkouts": a prune candidate is cleared only when its
 * marker's commit is an ancestor of HEAD).
 *
 * Few runs by default (CI); AUTOJOIN_LONG_TESTS=1 explores more. The test asserts that the runs
 * compared real merges (see `checked`), so it cannot pass by skipping every case.
 */
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProjectConfig } from '../../src/policy/index.js';
import { makePlan } from '../../src/reconcile/index.js';
import type { Plan } from '../../src/plan/index.js';
import { settingsIn } from '../../src/run/settings.js';
import { git, gitSteps } from '../support/git.js';
import { runs } from '../support/long.js';
import { startPeer, type Peer } from '../service/support/peer.js';

const RUNS = runs(1, 50, 3);
const SCOPES = ['s0', 's1', 's2', 's3', 's4'];
const TYPES = ['team', 'workspace'] as const;
const FILES = ['a.autojoin.yaml', 'b.autojoin.yaml', 'sub/c.autojoin.yaml', 'd.autojoin.yaml'];

interface Doc {
  scope: number;
  /** null: the document leaves scopeType to `defaults.scopeType`. */
  scopeType: (typeof TYPES)[number] | null;
}

type Op =
  | { kind: 'write'; file: number; docs: Doc[] }
  | { kind: 'delete'; file: number }
  | { kind: 'move'; file: number; to: number }
  | { kind: 'revert' }
  | { kind: 'default'; scopeType: (typeof TYPES)[number] };

const docArb = fc.record({ scope: fc.nat(SCOPES.length - 1), scopeType: fc.constantFrom(...TYPES, null) });
const fileArb = fc.nat(FILES.length - 1);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('write' as const), file: fileArb, docs: fc.array(docArb, { minLength: 1, maxLength: 2 }) }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('delete' as const), file: fileArb }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('move' as const), file: fileArb, to: fileArb }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'revert' as const }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('default' as const), scopeType: fc.constantFrom(...TYPES) }), weight: 1 },
);
const baseOpArb: fc.Arbitrary<Op> = opArb;
const scenarioArb = fc.record({
  base: fc.array(baseOpArb, { minLength: 2, maxLength: 5 }),
  side: fc.array(opArb, { maxLength: 3 }),
  pr: fc.array(opArb, { minLength: 1, maxLength: 3 }),
  main: fc.array(opArb, { maxLength: 2 }),
});
type Scenario = typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never;

const STRATEGIES = ['merge commit', 'squash', 'rebase', 'fast-forward'] as const;

let peer: Peer;
beforeAll(async () => {
  peer = await startPeer();
});
afterAll(async () => peer.close());

/** A commit of another repository's history, never in this one. */
const FOREIGN_COMMIT = 'f'.repeat(40);

/** Every scope any version could name is live, marked with owner `default` from `commitOf(key)`. */
async function setEveryLive(commitOf: (key: string) => string): Promise<void> {
  for (const scope of [...SCOPES, 'keep']) for (const scopeType of TYPES) await setLive(scopeType, scope, commitOf(`${scopeType}/${scope}`));
}

async function setLive(scopeType: string, scope: string, commit: string): Promise<void> {
  const response = await fetch(`${peer.emulator.url}/api/v1/invitations/autojoin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': peer.emulator.apiKey },
    body: JSON.stringify({ domains: [`${scope}.${scopeType}.example`], scope, scopeType, componentId: 'c', metadata: { 'autojoin-sync.owner': 'default', 'autojoin-sync.commit': commit } }),
  });
  expect(response.ok).toBe(true);
}

/**
 * Cases run before the random ones, so every run compares merges whose reviewed plan clears
 * scopes (random histories seldom delete a file that exists): the pull request deletes a file,
 * moves one, and edits one that a merged side branch also touched, while main moves on.
 */
const EXAMPLES: Scenario[] = [
  {
    base: [
      { kind: 'write', file: 0, docs: [{ scope: 0, scopeType: 'team' }] },
      { kind: 'write', file: 1, docs: [{ scope: 1, scopeType: null }, { scope: 2, scopeType: 'workspace' }] },
    ],
    side: [],
    pr: [{ kind: 'delete', file: 0 }],
    main: [],
  },
  {
    base: [
      { kind: 'default', scopeType: 'workspace' },
      { kind: 'write', file: 0, docs: [{ scope: 0, scopeType: null }, { scope: 3, scopeType: 'team' }] },
      { kind: 'write', file: 2, docs: [{ scope: 1, scopeType: 'team' }] },
    ],
    side: [{ kind: 'write', file: 3, docs: [{ scope: 4, scopeType: 'team' }] }],
    pr: [{ kind: 'write', file: 0, docs: [{ scope: 3, scopeType: 'team' }] }, { kind: 'move', file: 2, to: 1 }, { kind: 'revert' }],
    main: [{ kind: 'write', file: 3, docs: [{ scope: 2, scopeType: 'team' }] }],
  },
];

/**
 * What the runs checked: a scenario can stop early (a conflict, files that do not validate), so
 * the test counts the merges it compared and those whose reviewed plan cleared something; a run
 * of only early stops would otherwise pass while checking nothing.
 */
const checked = { scenarios: 0, merges: 0, mergesWithClears: 0, strategies: new Set<string>() };

/**
 * The live state before the merge: the scopes main's history ever declared were written from
 * main (its tip), every other one from another repository. Which ones main declared is what a
 * plan at main sees when everything is marked from its first commit: the declared scopes and every
 * prune candidate.
 */
async function liveBeforeMerge(dir: string): Promise<void> {
  const first = gitSteps(dir, ['checkout', '-q', '--detach', 'main-before'], ['rev-list', '--max-parents=0', 'HEAD']);
  await setEveryLive(() => first);
  const plan = await planAt(dir);
  const tip = git(dir, 'rev-parse', 'HEAD');
  const ours = new Set(plan?.scopes.map((scope) => scope.key) ?? []);
  await setEveryLive((key) => (ours.has(key) ? tip : FOREIGN_COMMIT));
}

describe('pruning from git history (property)', () => {
  it(
    'after a merge commit, a squash, a rebase or a fast-forward, apply clears only what the pull request’s plan showed',
    async () => {
      await fc.assert(fc.asyncProperty(scenarioArb, checkScenario), { numRuns: RUNS, examples: EXAMPLES.map((scenario) => [scenario]) });
      expect(checked.scenarios, 'scenarios whose test merge made a plan').toBeGreaterThanOrEqual(Math.ceil(RUNS / 2));
      expect(checked.merges, 'merges compared with the reviewed plan').toBeGreaterThanOrEqual(checked.scenarios);
      expect(checked.mergesWithClears, 'merges whose reviewed plan cleared a scope').toBeGreaterThan(0);
      expect([...checked.strategies].sort(), 'merge strategies compared').toEqual([...STRATEGIES].sort());
    },
    RUNS * 60_000,
  );
});

/** Builds the scenario's repository and checks every merge strategy against the test-merge plan. */
async function checkScenario(scenario: Scenario): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'autojoin-history-property-'));
  try {
    if (!(await build(dir, scenario))) return;
    await liveBeforeMerge(dir);
    git(dir, 'checkout', '-q', '--detach', 'main');
    if (!tryGit(dir, ['merge', '-q', '--no-ff', '-m', 'Test merge', 'pr'], ['merge', '--abort'])) return;
    const reviewed = await clearsAt(dir);
    if (reviewed === null) return; // the merged files do not validate: no plan, so nothing to apply either
    checked.scenarios += 1;
    for (const strategy of STRATEGIES) {
      gitSteps(dir, ['checkout', '-q', '-f', 'main'], ['reset', '-q', '--hard', 'main-before']);
      if (!mergeBy(dir, strategy)) continue;
      const applied = await clearsAt(dir);
      expect({ strategy, applied: applied?.filter((key) => !reviewed.includes(key)) }).toEqual({ strategy, applied: [] });
      checked.merges += 1;
      checked.strategies.add(strategy);
      if (reviewed.length > 0) checked.mergesWithClears += 1;
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** main (base history), pr from it (with a merged side branch), main moved on. @returns false when a step conflicts */
async function build(dir: string, scenario: Scenario): Promise<boolean> {
  git(dir, 'init', '-q');
  await writeFile(path.join(dir, 'autojoin-sync.yaml'), projectFile('team'));
  await mkdir(path.join(dir, 'policies'));
  await writeFile(path.join(dir, 'policies/keep.autojoin.yaml'), 'scope: keep\nscopeType: team\ncomponentId: c\ndomains: [keep.example]\n');
  commit(dir, 'start');
  for (const op of scenario.base) await apply(dir, op);
  gitSteps(dir, ['checkout', '-q', '-b', 'pr'], ['branch', 'side']);
  for (const op of scenario.pr) await apply(dir, op);
  if (scenario.side.length > 0) {
    git(dir, 'checkout', '-q', 'side');
    for (const op of scenario.side) await apply(dir, op);
    git(dir, 'checkout', '-q', 'pr');
    if (!tryGit(dir, ['merge', '-q', '--no-ff', '-m', 'Merge side', 'side'], ['merge', '--abort'])) return false;
  }
  git(dir, 'checkout', '-q', 'main');
  for (const op of scenario.main) await apply(dir, op);
  git(dir, 'branch', 'main-before');
  return true;
}

/** Merges pr into main as GitHub would. @returns false when the strategy cannot apply (conflict, or no fast-forward) */
function mergeBy(dir: string, strategy: (typeof STRATEGIES)[number]): boolean {
  switch (strategy) {
    case 'merge commit':
      return tryGit(dir, ['merge', '-q', '--no-ff', '-m', 'Merge pull request', 'pr'], ['merge', '--abort']);
    case 'squash':
      if (!tryGit(dir, ['merge', '-q', '--squash', 'pr'], ['reset', '-q', '--hard'])) return false;
      commit(dir, 'Squashed pull request');
      return true;
    case 'rebase':
      git(dir, 'checkout', '-q', '-B', 'rebased', 'pr');
      if (!tryGit(dir, ['rebase', '-q', '--force-rebase', 'main'], ['rebase', '--abort'])) return false;
      git(dir, 'checkout', '-q', 'main');
      return tryGit(dir, ['merge', '-q', '--ff-only', 'rebased'], []);
    case 'fast-forward':
      return tryGit(dir, ['merge', '-q', '--ff-only', 'pr'], []);
  }
}

/** Runs git; on failure runs `undo` (when given) and says so. */
function tryGit(dir: string, args: string[], undo: string[]): boolean {
  try {
    git(dir, ...args);
    return true;
  } catch {
    if (undo.length > 0) tryGit(dir, undo, []);
    return false;
  }
}

/** The scopes the plan of the checked-out tree clears; null when its files do not validate. */
async function clearsAt(dir: string): Promise<string[] | null> {
  const plan = await planAt(dir);
  return plan ? plan.changes.filter((change) => change.kind === 'clear').map((change) => change.key) : null;
}

/** The plan of the checked-out tree, in its run context (HEAD included); null when its files do not validate. */
async function planAt(dir: string): Promise<Plan | null> {
  const project = await loadProjectConfig(path.join(dir, 'autojoin-sync.yaml'), { base: dir, roots: [dir] });
  if (project.diagnostics.some((d) => d.severity === 'error')) return null;
  const settings = { ...settingsIn(dir, { paths: ['policies'], project: project.config, flags: { read: 'autojoin' } }), head: git(dir, 'rev-parse', 'HEAD') };
  return (await makePlan({ settings, client: peer.client, allowNoPolicies: true })).plan;
}

/** One commit per operation (an empty one when it changes nothing). */
async function apply(dir: string, op: Op): Promise<void> {
  const file = (index: number): string => path.join(dir, 'policies', FILES[index] as string);
  switch (op.kind) {
    case 'write': {
      const taken = await scopesOutside(dir, op.file);
      const docs = op.docs.filter((doc, index) => !taken.has(doc.scope) && op.docs.findIndex((other) => other.scope === doc.scope) === index);
      if (docs.length === 0) await rm(file(op.file), { force: true });
      else await writeText(file(op.file), docs.map(document).join('---\n'));
      break;
    }
    case 'delete':
      await rm(file(op.file), { force: true });
      break;
    case 'move': {
      const text = await readFile(file(op.file), 'utf8').catch(() => null);
      if (text !== null && op.to !== op.file && (await readFile(file(op.to), 'utf8').catch(() => null)) === null) {
        await rm(file(op.file));
        await writeText(file(op.to), text);
      }
      break;
    }
    case 'revert':
      // The last commit, unless it is the first or a merge (a change of the project file too).
      if (tryGit(dir, ['rev-parse', '-q', '--verify', 'HEAD~1'], []) && git(dir, 'rev-list', '--count', '--no-merges', 'HEAD~1..HEAD') === '1') {
        tryGit(dir, ['revert', '--no-edit', 'HEAD'], ['revert', '--abort']);
      }
      return;
    case 'default':
      await writeFile(path.join(dir, 'autojoin-sync.yaml'), projectFile(op.scopeType));
      break;
  }
  commit(dir, JSON.stringify(op));
}

function commit(dir: string, subject: string): void {
  gitSteps(dir, ['add', '-A'], ['commit', '-q', '--allow-empty', '-m', subject]);
}

async function writeText(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
}

function projectFile(scopeType: string): string {
  return `defaults:\n  scopeType: ${scopeType}\n  componentId: c\n`;
}

function document(doc: Doc): string {
  const scope = SCOPES[doc.scope] as string;
  return `scope: ${scope}\n${doc.scopeType ? `scopeType: ${doc.scopeType}\n` : ''}componentId: c\ndomains: [${scope}.example]\n`;
}

/** The scopes the other policy files name now, so a write never declares a scope twice. */
async function scopesOutside(dir: string, index: number): Promise<Set<number>> {
  const taken = new Set<number>();
  for (const [other, name] of FILES.entries()) {
    if (other === index) continue;
    const text = await readFile(path.join(dir, 'policies', name), 'utf8').catch(() => '');
    for (const match of text.matchAll(/^scope: (\S+)$/gm)) taken.add(SCOPES.indexOf(match[1] as string));
  }
  return taken;
}
