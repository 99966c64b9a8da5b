/**
 * src/history/behind.ts unit by unit: `--allow-behind` parsing, the refusal and its message, the
 * one git call for the marker commits (real repository in a temp dir) and a saved plan placed in
 * the applying checkout's history again. Written for its mutation score (docs/testing.md).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ancestryOfMarkers, BehindCheckoutError, checkSavedHistory, parseAllowBehind, placedBy, placedInHistory, refuseBehind } from '../../src/history/behind.js';
import { MARKER_KEYS, type Marker } from '../../src/plan/ownership.js';
import { PlanFileError } from '../../src/plan/saved.js';
import type { BehindScope, Change, Plan } from '../../src/plan/types.js';
import type { ScopeKey } from '../../src/scope.js';
import type { LiveScope } from '../../src/service/types.js';
import { git } from '../support/git.js';
import { defined } from '../support/defined.js';

const FOREIGN = 'f'.repeat(40);
let dir = '';
let first = '';
let head = '';

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'behind-units-'));
  git(dir, 'init', '-q', '-b', 'main');
  writeFileSync(path.join(dir, 'a.txt'), 'one');
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', 'one');
  first = git(dir, 'rev-parse', 'HEAD');
  writeFileSync(path.join(dir, 'a.txt'), 'two');
  git(dir, 'commit', '-q', '-am', 'two');
  head = git(dir, 'rev-parse', 'HEAD');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('parseAllowBehind', () => {
  it('reads globs separated by commas or newlines, skipping blanks; * names every scope', () => {
    const globs = parseAllowBehind(['team/a, team/b-*', '\n organization/x \n', '', ' , ']);
    expect(globs.map((glob) => glob.pattern)).toEqual(['team/a', 'team/b-*', 'organization/x']);
    expect(defined(globs[0]).test('team/a')).toBe(true);
    expect(defined(globs[0]).test('team/ab')).toBe(false);
    expect(defined(globs[1]).test('team/b-1')).toBe(true);
    const every = defined(parseAllowBehind(['*'])[0]);
    expect(every.pattern).toBe('*');
    expect(['team/a', 'workspace/x/y'].every((key) => every.test(key))).toBe(true);
    expect(parseAllowBehind([])).toEqual([]);
  });

  it('refuses a value that is not TYPE/ID, naming it', () => {
    expect(() => parseAllowBehind(['team/a,nope'])).toThrow(/allowBehind.*"nope".*is not a scope glob/);
    expect(() => parseAllowBehind(['**'])).toThrow(/"\*\*"/);
  });
});

describe('refuseBehind and its message', () => {
  const scope = (key: string, commit = FOREIGN, missing?: boolean): BehindScope => ({ key, commit, ...(missing === undefined ? {} : { missing }) });

  it('refuses only the scopes no glob names; a missing commit always', () => {
    expect(() => refuseBehind([], [])).not.toThrow();
    expect(() => refuseBehind([scope('team/a')], parseAllowBehind(['team/a']))).not.toThrow();
    expect(() => refuseBehind([scope('team/a', FOREIGN, false)], parseAllowBehind(['team/*']))).not.toThrow();
    let refused: unknown;
    try {
      refuseBehind([scope('team/a'), scope('team/b'), scope('team/c', FOREIGN, true)], parseAllowBehind(['team/a', '*']));
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(BehindCheckoutError);
    expect((refused as BehindCheckoutError).scopes.map((entry) => entry.key)).toEqual(['team/c']);
    expect(() => refuseBehind([scope('team/a'), scope('team/b')], parseAllowBehind(['team/a']))).toThrow(/^team\/b \(commit f{12}\): /);
  });

  it('names each scope with its short commit, 20 at most, and says what to do', () => {
    const error = new BehindCheckoutError([scope('team/a', head), scope('team/b'), scope('team/c'), scope('team/d')]);
    expect(error.name).toBe('BehindCheckoutError');
    expect(error.message).toMatch(new RegExp(`^team/a \\(commit ${head.slice(0, 12)}\\), team/b \\(commit f{12}\\), team/c`));
    expect(error.message).toContain('written from a commit this checkout does not contain (it is behind the last apply, or the marker is another history\'s); nothing was written. Update the checkout');
    expect(error.message).toMatch(/allowBehind.*team\/a.*team\/b.*team\/c/);
    expect(error.message).not.toMatch(/allowBehind.*team\/d/);
    expect(error.message).not.toContain('shallow');
    const many = new BehindCheckoutError(Array.from({ length: 23 }, (_, index) => scope(`team/s${String(index).padStart(2, '0')}`)));
    expect(many.message).toContain('team/s19 (commit ffffffffffff), and 3 more: written');
    expect(many.message).not.toContain('team/s20');
  });

  it('says to fetch the full history when a commit is missing from a shallow clone', () => {
    const error = new BehindCheckoutError([scope('team/a'), scope('team/b', FOREIGN, true)]);
    expect(error.message).toMatch(/^team\/a \(commit f{12}\), team\/b \(commit f{12}\): written from a commit this shallow clone cannot find; fetch the full history/);
    expect(error.message).toContain('git fetch --unshallow');
    expect(error.message).not.toContain('allowBehind');
  });
});

const marker = (owner: string, commit?: string): Marker => ({ owner, ...(commit ? { commit } : {}), digest: 'd'.repeat(64) });
const change = (key: string, reason: Change['reason'] = 'declared'): Change => ({ key, kind: 'update', reason }) as unknown as Change;
const planOf = (changes: Change[], extra: Partial<Plan> = {}): Plan =>
  ({ formatVersion: 1, createdAt: '2026-03-01T00:00:00Z', target: 'https://x.example', changes, scopes: changes.map((c) => ({ key: c.key })), owner: 'eng', notManagedHere: [], drift: [], ...extra }) as unknown as Plan;

describe('ancestryOfMarkers, placedBy, placedInHistory', () => {
  it('asks git nothing outside git, or without a marker commit of this owner or default', async () => {
    const markers = new Map<ScopeKey, Marker>([['team/a', marker('eng', FOREIGN)]]);
    expect(await ancestryOfMarkers(markers, 'eng', { base: dir })).toBeUndefined();
    expect(await ancestryOfMarkers(new Map([['team/a', marker('ops', FOREIGN)], ['team/b', marker('eng')]]), 'eng', { base: dir, head })).toBeUndefined();
    expect(await ancestryOfMarkers(markers, 'eng', { base: dir, head })).toEqual({ notAncestors: new Set([FOREIGN]), shallow: false });
    expect(await ancestryOfMarkers(new Map([['team/a', marker('default', first)]]), 'eng', { base: dir, head })).toEqual({ notAncestors: new Set(), shallow: false });
  });

  it('placedBy leaves the plan as it is without an answer, and places it with one', async () => {
    const plan = planOf([change('team/a'), change('team/b')]);
    const markers = new Map<ScopeKey, Marker>([['team/a', marker('eng', FOREIGN)], ['team/b', marker('eng', first)]]);
    expect(placedBy(plan, markers, undefined)).toBe(plan);
    expect(placedBy(plan, markers, { notAncestors: new Set([FOREIGN]), shallow: false }).behind).toEqual([{ key: 'team/a', commit: FOREIGN }]);
    expect((await placedInHistory(plan, markers, { base: dir, head })).behind).toEqual([{ key: 'team/a', commit: FOREIGN }]);
    expect(await placedInHistory(plan, markers, { base: dir })).toBe(plan);
  });
});

describe('checkSavedHistory: a saved plan placed in the applying checkout’s history again', () => {
  const live = (entries: [string, string | undefined, string?][]): Map<ScopeKey, LiveScope> =>
    new Map(
      entries.map(([key, commit, owner = 'eng']) => [
        key,
        {
          key,
          scope: defined(key.split('/')[1]),
          scopeType: 'team',
          domains: ['a.example'],
          autojoin: { invitationId: `i-${key}`, acceptsCount: 0 },
          metadata: { [MARKER_KEYS.owner]: owner, ...(commit ? { [MARKER_KEYS.commit]: commit } : {}) },
        },
      ]),
    );
  const where = (): { base: string; head: string } => ({ base: dir, head });

  it('passes a plan whose live markers are of this history, whatever the plan claimed', async () => {
    const plan = planOf([change('team/a'), change('team/b')], { behind: [{ key: 'team/a', commit: FOREIGN }] });
    await expect(checkSavedHistory(plan, live([['team/a', first], ['team/b', undefined]]), where(), [])).resolves.toBeUndefined();
  });

  it('refuses a scope the live marker places behind, unless --allow-behind names it', async () => {
    const plan = planOf([change('team/a'), change('team/b')]);
    const markers = live([['team/a', first], ['team/b', FOREIGN]]);
    await expect(checkSavedHistory(plan, markers, where(), [])).rejects.toThrow(/^team\/b \(commit f{12}\): written from a commit this checkout does not contain/);
    await expect(checkSavedHistory(plan, markers, where(), parseAllowBehind(['team/b']))).resolves.toBeUndefined();
    await expect(checkSavedHistory(plan, markers, where(), parseAllowBehind(['team/a']))).rejects.toThrow(BehindCheckoutError);
  });

  it('a prune clear of another history’s scope is refused as behind, with its commit', async () => {
    const plan = planOf([change('team/a'), change('team/gone', 'pruned')]);
    const error = await checkSavedHistory(plan, live([['team/a', head], ['team/gone', FOREIGN]]), where(), []).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BehindCheckoutError);
    expect((error as BehindCheckoutError).scopes).toEqual([{ key: 'team/gone', commit: FOREIGN }]);
    await expect(checkSavedHistory(plan, live([['team/a', head], ['team/gone', FOREIGN]]), where(), parseAllowBehind(['team/gone']))).resolves.toBeUndefined();
  });

  it('a change over a scope with no live marker, or none live at all, is not placed', async () => {
    const plan = planOf([change('team/a'), change('team/new'), change('team/unmarked')]);
    const markers = live([['team/a', first]]);
    markers.set('team/unmarked', { ...defined(markers.get('team/a')), key: 'team/unmarked', metadata: {} });
    await expect(checkSavedHistory(plan, markers, where(), [])).resolves.toBeUndefined();
  });

  it('outside git nothing is placed', async () => {
    const plan = planOf([change('team/a')]);
    await expect(checkSavedHistory(plan, live([['team/a', FOREIGN]]), { base: dir }, [])).resolves.toBeUndefined();
  });

  it('an owner move the plan claims must be one the live marker makes from this history', async () => {
    const plan = planOf([change('team/a'), change('team/b')], { ownerMoves: ['team/a'] });
    await expect(checkSavedHistory(plan, live([['team/a', first, 'default'], ['team/b', first]]), where(), [])).resolves.toBeUndefined();
    await expect(checkSavedHistory(plan, live([['team/a', first], ['team/b', first]]), where(), [])).rejects.toThrow(PlanFileError);
    await expect(checkSavedHistory(planOf([change('team/a'), change('team/b')], { ownerMoves: ['team/b'] }), live([['team/a', first, 'default'], ['team/b', first]]), where(), [])).rejects.toThrow(
      'the saved plan is not valid: team/b: its owner move is not one the live marker makes from this history; nothing was written',
    );
  });
});
