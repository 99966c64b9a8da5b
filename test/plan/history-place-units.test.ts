/**
 * src/plan/history-place.ts on its own (pure): which marker commits one git call must check, and a
 * plan placed in this checkout's history: prune clears from another history moved to
 * notManagedHere, other changes over such a marker listed as behind, `default`'s markers of this
 * history listed as owner moves. Written for its mutation score (docs/testing.md).
 */
import { describe, expect, it } from 'vitest';
import { markerCommitsToCheck, placeInHistory } from '../../src/plan/history-place.js';
import type { Marker } from '../../src/plan/ownership.js';
import { PLAN_FORMAT_VERSION, type Change, type NotManagedHere, type Plan, type RemovalCommit } from '../../src/plan/types.js';
import type { ScopeKey } from '../../src/scope.js';

const OURS = 'a'.repeat(40);
const FOREIGN = 'f'.repeat(40);
const ELSEWHERE = 'e'.repeat(40);
const REMOVED_BY: RemovalCommit = { commit: 'abcdef012345', date: '2026-01-02T03:04:05Z', subject: 'drop team/p' };

function change(key: ScopeKey, reason: Change['reason'] = 'declared', extra: Pick<Change, 'removedBy'> = {}): Change {
  const [scopeType = '', scope = ''] = key.split('/');
  const kind = reason === 'pruned' ? 'clear' : 'update';
  return { kind, key, scopeType, scope, componentId: 'cmp', before: ['a.com'], after: kind === 'clear' ? [] : ['b.com'], reason, ...extra };
}

function plan(changes: Change[], notManagedHere: NotManagedHere[] = [], owner = 'infra'): Plan {
  const keys = [...new Set([...changes.map((entry) => entry.key), 'team/same'])];
  return {
    formatVersion: PLAN_FORMAT_VERSION,
    createdAt: '2026-01-02T03:04:05.000Z',
    target: 'https://invitations.example.com',
    changes,
    scopes: keys.map((key) => ({ key, fingerprint: `fp-${key}` })),
    owner,
    notManagedHere,
    drift: [],
  };
}

const markers = (entries: [ScopeKey, Marker][]): Map<ScopeKey, Marker> => new Map(entries);
const history = (notAncestors: string[], shallow = false) => ({ notAncestors: new Set(notAncestors), shallow });

describe('markerCommitsToCheck', () => {
  const all = markers([
    ['team/mine', { owner: 'infra', commit: OURS }],
    ['team/default', { owner: 'default', commit: FOREIGN }],
    ['team/other', { owner: 'sales', commit: ELSEWHERE }],
    ['team/nocommit', { owner: 'infra' }],
  ]);

  it("checks this owner's and default's commits, not another owner's nor a marker without one", () => {
    expect([...markerCommitsToCheck(all, 'infra')].sort()).toEqual([FOREIGN, OURS].sort());
  });

  it("checks a run's other owners' commits too", () => {
    expect([...markerCommitsToCheck(all, 'infra', new Set(['infra', 'sales']))].sort()).toEqual([ELSEWHERE, FOREIGN, OURS].sort());
  });
});

describe('placeInHistory', () => {
  it('leaves a plan whose markers are all of this history as it is: no behind, no owner moves', () => {
    const input = plan([change('team/a')]);
    const placed = placeInHistory(input, markers([['team/a', { owner: 'infra', commit: OURS }]]), history([FOREIGN]));
    expect(placed).toEqual(input);
    expect(placed).not.toHaveProperty('behind');
    expect(placed).not.toHaveProperty('ownerMoves');
  });

  it('lists a change over a marker of another history as behind, missing only in a shallow clone', () => {
    const input = plan([change('team/a'), change('team/b')]);
    const marks = markers([['team/b', { owner: 'infra', commit: FOREIGN.toUpperCase() }]]);
    const placed = placeInHistory(input, marks, history([FOREIGN]));
    expect(placed.behind).toEqual([{ key: 'team/b', commit: FOREIGN.toUpperCase() }]);
    expect(placed.changes).toEqual(input.changes);
    expect(placed).not.toHaveProperty('ownerMoves');
    expect(placeInHistory(input, marks, history([FOREIGN], true)).behind).toEqual([{ key: 'team/b', commit: FOREIGN.toUpperCase(), missing: true }]);
  });

  it("leaves another owner's marker alone, of whatever history (ownership refuses it elsewhere)", () => {
    const input = plan([change('team/a'), change('team/p', 'pruned')]);
    const marks = markers([
      ['team/a', { owner: 'sales', commit: FOREIGN }],
      ['team/p', { owner: 'sales', commit: FOREIGN }],
    ]);
    expect(placeInHistory(input, marks, history([FOREIGN]))).toEqual(input);
  });

  it('moves a prune clear from another history to notManagedHere, sorted, and drops its scope', () => {
    const input = plan([change('team/b'), change('team/p', 'pruned', { removedBy: REMOVED_BY }), change('team/q', 'pruned')], [{ key: 'team/z', owner: 'sales' }, { key: 'team/c', owner: null }]);
    const marks = markers([
      ['team/p', { owner: 'infra', commit: FOREIGN }],
      ['team/q', { owner: 'default', commit: ELSEWHERE }],
    ]);
    const placed = placeInHistory(input, marks, history([FOREIGN, ELSEWHERE]));
    expect(placed.changes.map((entry) => entry.key)).toEqual(['team/b']);
    expect(placed.scopes.map((scope) => scope.key)).toEqual(['team/b', 'team/same']);
    expect(placed.notManagedHere).toEqual([
      { key: 'team/c', owner: null },
      { key: 'team/p', owner: 'infra', removedBy: REMOVED_BY, commit: FOREIGN },
      { key: 'team/q', owner: 'default', commit: ELSEWHERE },
      { key: 'team/z', owner: 'sales' },
    ]);
    expect(placed).not.toHaveProperty('behind');
  });

  it("lists default's marker of this history, and a run's other owner's, as owner moves; its own owner's is none", () => {
    const input = plan([change('team/a'), change('team/b'), change('team/c'), change('team/d')]);
    const marks = markers([
      ['team/a', { owner: 'default', commit: OURS }],
      ['team/b', { owner: 'infra', commit: OURS }],
      ['team/c', { owner: 'sales', commit: OURS }],
      ['team/d', { owner: 'default' }],
    ]);
    expect(placeInHistory(input, marks, history([])).ownerMoves).toEqual(['team/a']);
    const run = placeInHistory(input, marks, history([]), new Set(['infra', 'sales']));
    expect(run.ownerMoves).toEqual(['team/a', 'team/c']);
    expect(run).not.toHaveProperty('behind');
  });

  it("lists a change over default's marker of another history as behind, not as a move", () => {
    const input = plan([change('team/a')]);
    const placed = placeInHistory(input, markers([['team/a', { owner: 'default', commit: FOREIGN }]]), history([FOREIGN]));
    expect(placed.behind).toEqual([{ key: 'team/a', commit: FOREIGN }]);
    expect(placed).not.toHaveProperty('ownerMoves');
  });
});
