/**
 * A scope that lost its marker to another writer (README "Ownership", release 4), in the plan
 * builder: with this owner's markers live on other scopes and the scope declared at one of their
 * commits it is drift, tagged with what it lost; otherwise an unmarked scope is an owner-only
 * update, as before. An answer with no `metadata` field is unknown ownership.
 */
import { describe, expect, it } from 'vitest';
import { planBuilder } from '../../src/plan/plan-builder.js';
import { CANNOT_READ, writtenStateOf } from '../../src/plan/ownership.js';
import { refuseUnknownOwner, UnknownOwnerError } from '../../src/reconcile/ownership-refusal.js';
import type { LastApplied } from '../../src/plan/three-way.js';
import type { LiveScope } from '../../src/service/types.js';
import type { Policy } from '../../src/policy/types.js';
import type { ScopeKey } from '../../src/scope.js';
import { live, noAutojoin, policy, TARGET } from './fixtures.js';

const COMMIT = 'a'.repeat(40);
const ours = (scope: LiveScope): LiveScope => ({ ...scope, metadata: { 'autojoin-sync.owner': 'default', 'autojoin-sync.commit': COMMIT } });
const declaredAt = (policies: Policy[]): LastApplied => (commit, key) => {
  const found = policies.find((entry) => entry.key === key);
  return commit === COMMIT && found ? writtenStateOf(found) : null;
};

function plan(entries: [Policy, LiveScope | undefined][], lostFrom?: LastApplied) {
  const builder = planBuilder({ target: TARGET });
  for (const [desired, scope] of entries) builder.add(desired, scope);
  return { needed: builder.lostMarkersNeeded(), unknown: builder.unknownOwnership(), plan: builder.finish(undefined, lostFrom) };
}

describe('a marker removed outside this repository', () => {
  const b = policy('team/b', ['b.com']);
  const other = [policy('team/a', ['a.com']), ours(live('team/a', ['a.com']))] as [Policy, LiveScope];

  it('is drift with lost "marker" when the scope is declared at this owner\'s marker commit, measured from there', () => {
    const stripped: LiveScope = { ...live('team/b', ['b.com', 'x.com']), metadata: null };
    const { needed, plan: made } = plan([other, [b, stripped]], declaredAt([b]));
    expect([...needed.keys()]).toEqual([COMMIT]);
    expect(made.changes).toEqual([expect.objectContaining({ key: 'team/b', kind: 'update', origin: 'drift', outside: { added: ['x.com'], removed: [], fields: [], lost: 'marker' } })]);
  });

  it('is an owner-only update (the first plan after an upgrade) when no marker of this owner is live elsewhere', () => {
    const { needed, plan: made } = plan([[b, { ...live('team/b', ['b.com']), metadata: {} }]], declaredAt([b]));
    expect(needed.size).toBe(0);
    expect(made.changes).toEqual([expect.objectContaining({ key: 'team/b', fieldChanges: [{ field: 'owner', before: null, after: 'default' }] })]);
    expect(made.changes[0]?.origin).toBeUndefined();
  });

  it('is an owner-only update when the scope is not declared at any of those commits (newly declared)', () => {
    const { plan: made } = plan([other, [b, { ...live('team/b', ['b.com']), metadata: {} }]], declaredAt([]));
    expect(made.changes[0]?.origin).toBeUndefined();
  });

  it('an autojoin invitation revoked or deleted (invitation: null) of a scope written from here is drift with lost "invitation"', () => {
    const { plan: made } = plan([other, [b, noAutojoin('team/b')]], declaredAt([b]));
    expect(made.changes).toEqual([expect.objectContaining({ key: 'team/b', kind: 'create', origin: 'drift', outside: { added: [], removed: ['b.com'], fields: [], lost: 'invitation' } })]);
  });

  it('without the states at those commits (a caller that reads none), nothing is tagged', () => {
    const { plan: made } = plan([other, [b, noAutojoin('team/b')]]);
    expect(made.changes).toEqual([expect.objectContaining({ key: 'team/b', kind: 'create' })]);
    expect(made.changes[0]?.origin).toBeUndefined();
  });
});

describe('an answer with no metadata field', () => {
  const unshown = (scope: LiveScope): LiveScope => ({ ...scope, unshown: { metadata: true } });

  it('is unknown ownership while other scopes show metadata: refused without --take-ownership, named', () => {
    const { unknown, plan: made } = plan([
      [policy('team/a', ['a.com']), ours(live('team/a', ['a.com']))],
      [policy('team/b', ['b.com', 'new.com']), unshown(live('team/b', ['b.com']))],
    ]);
    expect(unknown).toEqual(['team/b']);
    expect(made.notes).toBeUndefined();
    expect(() => refuseUnknownOwner(unknown)).toThrow(UnknownOwnerError);
    expect(() => refuseUnknownOwner(unknown)).toThrow(/team\/b: the service's answer carries no metadata field/u);
    expect(() => refuseUnknownOwner(unknown, new Set<ScopeKey>(['team/b']))).not.toThrow();
  });

  it('when no scope shows metadata, the plan says once that ownership cannot be read, and refuses nothing', () => {
    const { unknown, plan: made } = plan([
      [policy('team/a', ['a.com', 'new.com']), unshown(live('team/a', ['a.com']))],
      [policy('team/b', ['b.com', 'new.com']), unshown(live('team/b', ['b.com']))],
    ]);
    expect(unknown).toEqual([]);
    expect(made.notes).toEqual([CANNOT_READ.ownership]);
  });

  it('answers without groups: the plan says once that scopeName cannot be read back', () => {
    const noGroups = (scope: LiveScope): LiveScope => ({ ...ours(scope), unshown: { groups: true } });
    const { plan: made } = plan([
      [policy('team/a', ['a.com'], { scopeName: 'A' }), noGroups(live('team/a', ['a.com']))],
      [policy('team/b', ['b.com'], { scopeName: 'B' }), noGroups(live('team/b', ['b.com']))],
    ]);
    expect(made.notes).toEqual([CANNOT_READ.scopeName]);
  });
});
