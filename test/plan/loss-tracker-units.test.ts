/**
 * The scopes that may have lost their marker (or invitation) to another writer, unit by unit
 * (src/plan/drift.ts, lossSuspect and lossTracker): which changes are held, which of this owner's
 * marker commits are read, and how a held change is tagged. Pure: the states at commits are given.
 */
import { describe, expect, it } from 'vitest';
import { lossSuspect, lossTracker, type LastApplied } from '../../src/plan/drift.js';
import { declaredDesired, type Desired } from '../../src/plan/diff.js';
import { writtenStateOf } from '../../src/plan/ownership.js';
import { live, noAutojoin, policy } from './fixtures.js';
import type { Change } from '../../src/plan/types.js';
import type { LiveScope } from '../../src/service/types.js';

const desired = declaredDesired(policy('team/b', ['b.com']));
const update: Change = { kind: 'update', key: 'team/b', scope: 'b', scopeType: 'team', componentId: 'cmp_1', before: ['b.com'], after: ['b.com'], reason: 'declared' };
/** An active invitation whose metadata another writer replaced: no marker left. */
const stripped = (domains = ['b.com'], extra: Partial<LiveScope> = {}): LiveScope => ({ ...live('team/b', domains), metadata: { theirs: 'x' }, ...extra });
const markerOf = (owner: string, commit?: string) => ({ 'autojoin-sync.owner': owner, ...(commit === undefined ? {} : { 'autojoin-sync.commit': commit }) });
const marked = (key: `team/${string}`, owner: string, commit?: string): LiveScope => ({ ...live(key, ['x.com']), metadata: markerOf(owner, commit) });
/** The policy at every commit in `at` (others: gone). */
const declaredAt = (at: string[], state = writtenStateOf(desired.policy)): LastApplied => (commit) => (at.includes(commit) ? state : null);

describe('lossSuspect', () => {
  it('holds a declared scope with domains whose active invitation shows metadata without a marker', () => {
    expect(lossSuspect(desired, stripped(), update)).toEqual({ desired, live: stripped(), change: update, lost: 'marker' });
  });

  it('holds nothing without a change, for a change already tagged, a pruned scope, no domains or no live state', () => {
    expect(lossSuspect(desired, stripped(), null)).toBeNull();
    expect(lossSuspect(desired, stripped(), { ...update, origin: 'drift' })).toBeNull();
    expect(lossSuspect({ ...desired, reason: 'pruned' }, stripped(), update)).toBeNull();
    const empty: Desired = { ...desired, domains: [] };
    expect(lossSuspect(empty, stripped(), update)).toBeNull();
    expect(lossSuspect(desired, undefined, update)).toBeNull();
  });

  it('an active invitation with a marker, or whose metadata is not shown, lost nothing', () => {
    expect(lossSuspect(desired, stripped(['b.com'], { metadata: markerOf('default') }), update)).toBeNull();
    expect(lossSuspect(desired, stripped(['b.com'], { metadata: undefined }), update)).toBeNull();
  });

  it('no active invitation: lost it unless a switched-off one still carries a marker', () => {
    expect(lossSuspect(desired, noAutojoin('team/b'), update)?.lost).toBe('invitation');
    expect(lossSuspect(desired, { ...noAutojoin('team/b'), deactivatedMetadata: markerOf('default') }, update)).toBeNull();
  });
});

describe('lossTracker: the commits it reads', () => {
  const held = (tracker: ReturnType<typeof lossTracker>): void => {
    expect(tracker.hold(desired, stripped(), update)).toBe(true);
  };

  it('none while no change is held, though markers were seen', () => {
    const tracker = lossTracker('default');
    tracker.see(marked('team/a', 'default', 'c1'));
    expect(tracker.hold(desired, stripped(['b.com'], { metadata: markerOf('default') }), update)).toBe(false);
    expect(tracker.needed().size).toBe(0);
  });

  it('this owner\'s marker commits, the most common first, each with every held scope and its file', () => {
    const tracker = lossTracker('default');
    tracker.see(marked('team/a', 'default', 'rare'));
    for (const key of ['team/c', 'team/d'] as const) tracker.see(marked(key, 'default', 'common'));
    tracker.see(marked('team/e', 'other', 'theirs'));
    tracker.see(marked('team/f', 'default'));
    tracker.see(undefined);
    tracker.see({ ...noAutojoin('team/g'), deactivatedMetadata: markerOf('default', 'switched-off') });
    held(tracker);
    const scopes = [{ key: 'team/b', file: 'policies/b.autojoin.yaml' }];
    expect([...tracker.needed()]).toEqual([['common', scopes], ['rare', scopes], ['switched-off', scopes]]);
  });

  it('at most the 8 most common commits', () => {
    const tracker = lossTracker('default');
    for (let commit = 0; commit < 9; commit += 1) {
      for (let seen = 0; seen <= commit; seen += 1) tracker.see(marked(`team/s${commit}-${seen}`, 'default', `c${commit}`));
    }
    held(tracker);
    expect([...tracker.needed().keys()]).toEqual(['c8', 'c7', 'c6', 'c5', 'c4', 'c3', 'c2', 'c1']);
  });
});

describe('lossTracker: what it makes of a held change', () => {
  const tracking = (...commits: string[]) => {
    const tracker = lossTracker('default');
    for (const [index, commit] of commits.entries()) tracker.see(marked(`team/m${index}`, 'default', commit));
    return tracker;
  };

  it('reads the commits in turn: the first that declares the scope is the base', () => {
    const tracker = tracking('first', 'first', 'second');
    tracker.hold(desired, stripped(['b.com', 'x.com']), update);
    expect(tracker.resolve(declaredAt(['second']))).toEqual([{ ...update, origin: 'drift', outside: { added: ['x.com'], removed: [], fields: [], lost: 'marker' } }]);
  });

  it('leaves the change as it was when no commit declares the scope', () => {
    const tracker = tracking('first');
    tracker.hold(desired, stripped(), update);
    expect(tracker.resolve(declaredAt([]))).toEqual([update]);
  });

  it('tags a change whose live domains are the files\' as drift with nothing moved but the marker, and its modifiedAt', () => {
    const tracker = tracking('first');
    const scope = stripped(['b.com'], { autojoin: { invitationId: 'inv', acceptsCount: 0, modifiedAt: '2026-11-20T10:00:00.000Z' } });
    tracker.hold(desired, scope, update);
    expect(tracker.resolve(declaredAt(['first']))).toEqual([
      { ...update, origin: 'drift', outside: { added: [], removed: [], fields: [], lost: 'marker', modifiedAt: '2026-11-20T10:00:00.000Z' } },
    ]);
  });

  it('a conflict when the files moved since that commit too (b.com is theirs, x.com the outside\'s)', () => {
    const tracker = tracking('first');
    tracker.hold(desired, stripped(['x.com']), update);
    const before = { ...writtenStateOf(desired.policy), domains: ['old.com'] };
    expect(tracker.resolve(declaredAt(['first'], before))).toEqual([{ ...update, origin: 'conflict', outside: { added: ['x.com'], removed: [], fields: [], lost: 'marker' } }]);
  });
});
