import { describe, expect, it } from 'vitest';
import { diffChanges as diff } from '../support/plan.js';
import { live, liveMap, noAutojoin, policy } from './fixtures.js';

describe('the comparison of each scope (planBuilder)', () => {
  it('creates when there is no active autojoin and domains are desired', () => {
    const changes = diff([policy('team/a', ['b.com', 'a.com'], { scopeName: 'A Team' })], liveMap(noAutojoin('team/a')));
    expect(changes).toEqual([
      {
        kind: 'create',
        key: 'team/a',
        scope: 'a',
        scopeType: 'team',
        scopeName: 'A Team',
        componentId: 'cmp_1',
        before: [],
        after: ['a.com', 'b.com'],
        added: ['a.com', 'b.com'],
        removed: [],
        unchanged: 0,
        reason: 'declared',
        source: { file: 'policies/a.autojoin.yaml', line: 1, column: 1 },
        explicitEmpty: false,
      },
    ]);
  });

  it('creates when the scope is absent from the live map', () => {
    const [change] = diff([policy('team/a', ['x.com'])], liveMap());
    expect(change?.kind).toBe('create');
    expect(change?.before).toEqual([]);
  });

  it('updates with added, removed and unchanged', () => {
    const [change] = diff([policy('team/a', ['keep.com', 'new.com', 'also.com'])], liveMap(live('team/a', ['keep.com', 'old.com', 'also.com'])));
    expect(change).toMatchObject({
      kind: 'update',
      before: ['also.com', 'keep.com', 'old.com'],
      after: ['also.com', 'keep.com', 'new.com'],
      added: ['new.com'],
      removed: ['old.com'],
      unchanged: 2,
    });
    expect(change?.scopeName).toBeUndefined();
  });

  it('updates an active autojoin that has no domains yet', () => {
    const [change] = diff([policy('team/a', ['x.com'])], liveMap(live('team/a', [])));
    expect(change).toMatchObject({ kind: 'update', added: ['x.com'], removed: [], unchanged: 0 });
  });

  it('clears an active autojoin with domains when desired is []', () => {
    const [change] = diff([policy('team/a', [])], liveMap(live('team/a', ['x.com', 'y.com'])));
    expect(change).toMatchObject({ kind: 'clear', before: ['x.com', 'y.com'], after: [], removed: ['x.com', 'y.com'], added: [], explicitEmpty: true, reason: 'declared' });
  });

  it('carries the live autojoin invitation on update and clear, never on create', () => {
    const joined = { ...live('team/a', ['x.com']), autojoin: { invitationId: 'inv_9', status: 'sent', acceptsCount: 12, modifiedAt: '2026-01-01T00:00:00Z' } };
    const [clear] = diff([policy('team/a', [])], liveMap(joined));
    expect(clear?.autojoin).toEqual({ invitationId: 'inv_9', status: 'sent', acceptsCount: 12, modifiedAt: '2026-01-01T00:00:00Z' });
    const [update] = diff([policy('team/a', ['y.com'])], liveMap(joined));
    expect(update?.autojoin?.invitationId).toBe('inv_9');
    const [create] = diff([policy('team/b', ['y.com'])], liveMap(noAutojoin('team/b')));
    expect(create).not.toHaveProperty('autojoin');
  });

  it('plans nothing for desired [] without active autojoin, or with an empty one', () => {
    expect(diff([policy('team/a', [])], liveMap(noAutojoin('team/a')))).toEqual([]);
    expect(diff([policy('team/a', [])], liveMap())).toEqual([]);
    expect(diff([policy('team/a', [])], liveMap(live('team/a', [])))).toEqual([]);
  });

  it('plans nothing when the lists match', () => {
    expect(diff([policy('team/a', ['a.com', 'b.com'])], liveMap(live('team/a', ['a.com', 'b.com'])))).toEqual([]);
  });

  it('never shows case, order, duplicates or trailing dots as changes', () => {
    const desired = [policy('team/a', ['b.com', 'A.com'])];
    const current = liveMap(live('team/a', ['a.com.', 'B.COM', 'b.com']));
    expect(diff(desired, current)).toEqual([]);
    const [change] = diff([policy('team/b', ['x.com'])], liveMap(live('team/b', ['X.COM.', 'Y.com'])));
    expect(change).toMatchObject({ kind: 'update', removed: ['y.com'], unchanged: 1, before: ['x.com', 'y.com'] });
  });

  it('compares internationalized domains in punycode', () => {
    expect(diff([policy('team/a', ['xn--bcher-kva.example'])], liveMap(live('team/a', ['BÜCHER.example'])))).toEqual([]);
  });

  it('clears a pruned scope that has live domains, marked pruned and not explicit', () => {
    const pruned = [policy('team/gone', ['x.com'], { scopeName: 'Gone' })];
    const changes = diff([], liveMap(live('team/gone', ['x.com', 'y.com'])), pruned);
    expect(changes).toEqual([
      expect.objectContaining({ kind: 'clear', key: 'team/gone', reason: 'pruned', explicitEmpty: false, scopeName: 'Gone', removed: ['x.com', 'y.com'] }),
    ]);
  });

  it('leaves a pruned scope alone when live has no domains or it is still declared', () => {
    expect(diff([], liveMap(noAutojoin('team/gone')), [policy('team/gone', ['x.com'])])).toEqual([]);
    const moved = diff([policy('team/a', ['x.com'])], liveMap(live('team/a', ['x.com'])), [policy('team/a', ['y.com'])]);
    expect(moved).toEqual([]);
  });

  it('returns one change per scope, sorted by key, and ignores live scopes not declared', () => {
    const desired = [policy('team/c', ['c.com']), policy('team/a', ['a.com']), policy('team/b', ['b.com'])];
    const current = liveMap(live('team/b', ['old.com']), live('team/z', ['z.com']));
    expect(diff(desired, current).map((change) => `${change.kind} ${change.key}`)).toEqual(['create team/a', 'update team/b', 'create team/c']);
  });

  it('refuses a scope declared twice, naming it', () => {
    expect(() => diff([policy('team/a', ['a.com']), policy('team/a', ['b.com'])], liveMap())).toThrow(/team\/a was planned twice/);
  });
});
