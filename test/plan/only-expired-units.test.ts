/**
 * `apply --only-expired` (src/plan/only-expired.ts) on its own: which change is narrowed to its
 * removals by expiry, what the narrowed write carries, and which scope is refused and why. Written
 * for its mutation score (docs/testing.md); pure, no service, no git.
 */
import { describe, expect, it, vi } from 'vitest';
import { onlyExpired, onlyExpiredStep } from '../../src/plan/only-expired.js';
import { MARKER_KEYS, type WrittenState } from '../../src/plan/ownership.js';
import type { Change } from '../../src/plan/types.js';
import type { LiveScope } from '../../src/service/types.js';
import type { ScopeKey } from '../../src/scope.js';
import { defined } from '../support/defined.js';
import { live, noAutojoin, policy } from './fixtures.js';

const EXPIRED = 'expired 2025-01-01';

/** An update of `key` from `before` to `after` whose `expired` domains go by expiry. */
function update(before: string[], after: string[], expired: string[], extra: Partial<Change> = {}, key: ScopeKey = 'team/a'): Change {
  const [scopeType, scope] = key.split('/') as [string, string];
  return {
    kind: 'update',
    key,
    scope,
    scopeType,
    componentId: 'cmp_new',
    before,
    after,
    reason: 'declared',
    removalReasons: expired.map((domain) => ({ domain, reason: EXPIRED })),
    ...extra,
  };
}

/** A live scope holding `domains`, marked by this repository, naming component cmp_live. */
function marked(domains: string[], extra: Partial<LiveScope> = {}, key: ScopeKey = 'team/a'): LiveScope {
  return { ...live(key, domains), componentId: 'cmp_live', metadata: { [MARKER_KEYS.owner]: 'default', [MARKER_KEYS.digest]: 'd1' }, ...extra };
}

const ownerChange = { field: 'owner' as const, before: 'ops', after: 'default' };
const nameChange = { field: 'scopeName' as const, before: 'Old', after: 'New' };

describe('onlyExpired: which change is narrowed', () => {
  it('nothing to narrow: no change, a create, a scope without a live autojoin invitation', () => {
    expect(onlyExpired(null, marked(['a.com']))).toEqual({ change: null });
    const create = { ...update([], ['a.com'], []), kind: 'create' } as Change;
    expect(onlyExpired({ ...create, removalReasons: [{ domain: 'x.com', reason: EXPIRED }] }, marked(['a.com']))).toEqual({ change: null });
    const change = update(['a.com', 'old.com'], ['a.com'], ['old.com']);
    expect(onlyExpired(change, undefined)).toEqual({ change: null });
    expect(onlyExpired(change, noAutojoin('team/a'))).toEqual({ change: null });
    expect(onlyExpired(change, marked(['a.com', 'old.com'])).change).not.toBeNull();
  });

  it('a change without removals by expiry is not written at all', () => {
    expect(onlyExpired(update(['a.com'], ['a.com', 'new.com'], []), marked(['a.com']))).toEqual({ change: null });
    const { removalReasons: _none, ...noReasons } = update(['a.com', 'b.com'], ['a.com'], []);
    expect(onlyExpired(noReasons as Change, marked(['a.com', 'b.com']))).toEqual({ change: null });
  });
});

describe('onlyExpired: the narrowed write', () => {
  it('keeps every live domain but the expired ones, whatever else the files want', () => {
    const change = update(['a.com', 'b.com', 'old.com'], ['a.com', 'new.com'], ['old.com']);
    const narrowed = defined(onlyExpired(change, marked(['a.com', 'b.com', 'old.com'])).change);
    expect(narrowed).toMatchObject({ kind: 'update', before: ['a.com', 'b.com', 'old.com'], after: ['a.com', 'b.com'], explicitEmpty: false });
    expect(narrowed.removalReasons).toEqual([{ domain: 'old.com', reason: EXPIRED }]);
    expect(change.after).toEqual(['a.com', 'new.com']);
  });

  it('every live domain expired: a clear, written as an intended empty list', () => {
    const change = { ...update(['old.com', 'x.com'], [], ['old.com', 'x.com']), kind: 'clear' } as Change;
    const narrowed = defined(onlyExpired(change, marked(['old.com', 'x.com'])).change);
    expect(narrowed).toMatchObject({ kind: 'clear', after: [], explicitEmpty: true });
    const fromUpdate = defined(onlyExpired(update(['old.com'], ['new.com'], ['old.com']), marked(['old.com'])).change);
    expect(fromUpdate).toMatchObject({ kind: 'clear', after: [], explicitEmpty: true });
  });

  it('of the field changes only the owner’s stays; none left, none shown', () => {
    const both = update(['a.com', 'old.com'], ['a.com'], ['old.com'], { fieldChanges: [nameChange, ownerChange] });
    expect(defined(onlyExpired(both, marked(['a.com', 'old.com'])).change).fieldChanges).toEqual([ownerChange]);
    const nameOnly = update(['a.com', 'old.com'], ['a.com'], ['old.com'], { fieldChanges: [nameChange] });
    expect(defined(onlyExpired(nameOnly, marked(['a.com', 'old.com'])).change)).not.toHaveProperty('fieldChanges');
    const none = update(['a.com', 'old.com'], ['a.com'], ['old.com']);
    expect(defined(onlyExpired(none, marked(['a.com', 'old.com'])).change)).not.toHaveProperty('fieldChanges');
  });

  it('the name as it is live; a name the service does not show is left out, so the service keeps it', () => {
    const change = update(['a.com', 'old.com'], ['a.com'], ['old.com'], { scopeName: 'New' });
    expect(defined(onlyExpired(change, marked(['a.com', 'old.com'], { scopeName: 'Live' })).change).scopeName).toBe('Live');
    expect(defined(onlyExpired(change, marked(['a.com', 'old.com'], { scopeName: null })).change)).not.toHaveProperty('scopeName');
    expect(defined(onlyExpired(change, marked(['a.com', 'old.com'])).change)).not.toHaveProperty('scopeName');
    expect(defined(onlyExpired(change, marked(['a.com', 'old.com'], { scopeName: '' })).change).scopeName).toBe('');
  });

  it('the component the service shows, else the one last applied, never the file’s unreviewed one', () => {
    const change = update(['a.com', 'old.com'], ['a.com'], ['old.com']);
    const applied: WrittenState = { scopeType: 'team', scope: 'a', componentId: 'cmp_applied', domains: ['a.com', 'old.com'] };
    expect(onlyExpired(change, marked(['a.com', 'old.com']), applied)).toMatchObject({ change: { componentId: 'cmp_live' } });
    const unshown = marked(['a.com', 'old.com'], { componentId: undefined });
    expect(onlyExpired(change, unshown, applied)).toEqual({ change: expect.objectContaining({ componentId: 'cmp_applied' }) });
  });

  it('a component read neither live nor last applied: refused, the narrowed change kept to show it', () => {
    const change = update(['a.com', 'old.com'], ['a.com'], ['old.com']);
    const result = onlyExpired(change, marked(['a.com', 'old.com'], { componentId: undefined }));
    expect(result.refused).toBe('component');
    expect(result.change).toMatchObject({ key: 'team/a', after: ['a.com'] });
  });

  it('managed metadata as it is live (this repository’s keys only); no metadata managed, none written', () => {
    const metadata = { [MARKER_KEYS.owner]: 'default', [MARKER_KEYS.keys]: 'team', team: 'live-team', other: 'theirs' };
    const change = update(['a.com', 'old.com'], ['a.com'], ['old.com'], { metadata: { team: 'file-team', cost: 'file-cost' } });
    expect(defined(onlyExpired(change, marked(['a.com', 'old.com'], { metadata })).change).metadata).toEqual({ team: 'live-team' });
    const unmanaged = update(['a.com', 'old.com'], ['a.com'], ['old.com']);
    expect(defined(onlyExpired(unmanaged, marked(['a.com', 'old.com'], { metadata })).change)).not.toHaveProperty('metadata');
  });

  it('the live marker is written back as it is: its string keys only, nothing else of the metadata', () => {
    const metadata = { [MARKER_KEYS.owner]: 'default', [MARKER_KEYS.digest]: 'd1', [MARKER_KEYS.commit]: 'c1', 'autojoin-sync.odd': 3, team: 'x' };
    const result = onlyExpired(update(['a.com', 'old.com'], ['a.com'], ['old.com']), marked(['a.com', 'old.com'], { metadata }));
    expect(result).toEqual({ change: expect.objectContaining({ keepMarker: { [MARKER_KEYS.owner]: 'default', [MARKER_KEYS.digest]: 'd1', [MARKER_KEYS.commit]: 'c1' } }) });
    expect(result).not.toHaveProperty('refused');
  });
});

describe('onlyExpired: a scope without a marker is marked with HEAD only when HEAD declares what the write leaves', () => {
  const unmarked = { ...live('team/a', ['a.com', 'old.com']), componentId: 'cmp_live' };
  const change = update(['a.com', 'old.com'], ['a.com', 'new.com'], ['old.com']);
  const leaves: WrittenState = { scopeType: 'team', scope: 'a', componentId: 'cmp_live', domains: ['a.com'] };

  it('HEAD declares exactly what the write leaves: written, no marker kept (the write marks it with HEAD)', () => {
    const result = onlyExpired(change, unmarked, undefined, leaves);
    expect(result).toEqual({ change: expect.objectContaining({ after: ['a.com'] }) });
    expect(result.change).not.toHaveProperty('keepMarker');
  });

  it('HEAD declares more, another component, or is unknown: refused to re-mark', () => {
    expect(onlyExpired(change, unmarked, undefined, { ...leaves, domains: ['a.com', 'new.com'] }).refused).toBe('remark');
    expect(onlyExpired(change, unmarked, undefined, { ...leaves, componentId: 'cmp_new' }).refused).toBe('remark');
    expect(onlyExpired(change, unmarked).refused).toBe('remark');
  });

  it('live metadata of its own keys but no owner carries no marker: the same check, no marker written back', () => {
    const metadata = { team: 'x', [MARKER_KEYS.digest]: 'd1' };
    expect(onlyExpired(change, { ...unmarked, metadata }).refused).toBe('remark');
    const written = onlyExpired(change, { ...unmarked, metadata }, undefined, leaves);
    expect(written).not.toHaveProperty('refused');
    expect(written.change).not.toHaveProperty('keepMarker');
  });

  it('live metadata that is not an object carries no marker: the same check', () => {
    expect(onlyExpired(change, { ...unmarked, metadata: 'text' }, undefined, leaves)).not.toHaveProperty('refused');
    expect(onlyExpired(change, { ...unmarked, metadata: ['x'] }).refused).toBe('remark');
  });
});

describe('onlyExpiredStep', () => {
  const aPolicy = policy('team/a', ['a.com'], { componentId: 'cmp_live' });
  const change = update(['a.com', 'old.com'], ['a.com', 'new.com'], ['old.com']);

  it('disabled: every change as it is, nothing held, nothing refused', () => {
    const step = onlyExpiredStep(false, () => undefined);
    expect(step.narrow(change, undefined, aPolicy)).toBe(change);
    expect(step.narrow(null, undefined, aPolicy)).toBeNull();
    step.hold(marked(['a.com', 'old.com']), aPolicy);
    expect(step.resolveHeld([change])).toEqual([change]);
    const lost = { ...change, outside: { added: [], removed: [], fields: [], lost: 'marker' as const } };
    expect(step.resolveLost([lost])).toEqual([lost]);
    expect(step.refused()).toEqual([]);
  });

  it('enabled: narrows with the state last applied of the change’s scope, and HEAD’s policy', () => {
    const baseOf = vi.fn((key: ScopeKey) => (key === 'team/a' ? { scopeType: 'team', scope: 'a', componentId: 'cmp_applied', domains: [] } : undefined));
    const step = onlyExpiredStep(true, baseOf);
    const unshown = { ...live('team/a', ['a.com', 'old.com']) };
    expect(step.narrow(change, unshown, aPolicy)).toMatchObject({ after: ['a.com'], componentId: 'cmp_applied' });
    expect(baseOf).toHaveBeenCalledWith('team/a');
    expect(step.narrow(update(['b.com'], ['c.com'], []), marked(['b.com']), aPolicy)).toBeNull();
    expect(step.refused()).toEqual([{ key: 'team/a', reason: 'remark' }]);
  });

  it('enabled, no change: nothing to narrow, nothing refused', () => {
    const step = onlyExpiredStep(true, () => undefined);
    expect(step.narrow(null, undefined, aPolicy)).toBeNull();
    expect(step.refused()).toEqual([]);
  });

  it('HEAD’s policy is what a scope without a marker must match', () => {
    const unmarked = { ...live('team/a', ['a.com', 'old.com']), componentId: 'cmp_live' };
    const step = onlyExpiredStep(true, () => undefined);
    expect(step.narrow(change, unmarked, aPolicy)).toMatchObject({ after: ['a.com'] });
    expect(step.refused()).toEqual([]);
    expect(step.narrow(change, unmarked, policy('team/a', ['a.com', 'new.com'], { componentId: 'cmp_live' }))).toMatchObject({ after: ['a.com'] });
    expect(step.refused()).toEqual([{ key: 'team/a', reason: 'remark' }]);
  });

  it('refused scopes by key, sorted; a scope written is not named', () => {
    const step = onlyExpiredStep(true, () => undefined);
    const noComponent = (key: ScopeKey) => ({ ...live(key, ['a.com', 'old.com']), metadata: { [MARKER_KEYS.owner]: 'default' } });
    step.narrow(update(['a.com', 'old.com'], ['a.com'], ['old.com'], {}, 'team/z'), noComponent('team/z'), policy('team/z', ['a.com']));
    step.narrow(update(['a.com', 'old.com'], ['a.com'], ['old.com'], {}, 'team/b'), noComponent('team/b'), policy('team/b', ['a.com']));
    step.narrow(update(['a.com', 'old.com'], ['a.com'], ['old.com'], {}, 'team/c'), marked(['a.com', 'old.com'], {}, 'team/c'), policy('team/c', ['a.com']));
    expect(step.refused()).toEqual([
      { key: 'team/b', reason: 'component' },
      { key: 'team/z', reason: 'component' },
    ]);
  });

  it('held scopes are narrowed once resolved, with the live state held; a change never held has no live state and is dropped', () => {
    const step = onlyExpiredStep(true, () => undefined);
    step.hold(marked(['a.com', 'old.com']), aPolicy);
    const other = update(['b.com', 'old.com'], ['b.com'], ['old.com'], {}, 'team/b');
    const resolved = step.resolveHeld([change, other]);
    expect(resolved).toHaveLength(1);
    expect(resolved[0]).toMatchObject({ key: 'team/a', after: ['a.com'], keepMarker: { [MARKER_KEYS.owner]: 'default' } });
  });

  it('a held scope refused stays in the resolved changes and is named', () => {
    const step = onlyExpiredStep(true, () => undefined);
    step.hold({ ...live('team/a', ['a.com', 'old.com']) }, policy('team/a', ['a.com', 'new.com']));
    expect(step.resolveHeld([change])).toMatchObject([{ key: 'team/a', after: ['a.com'] }]);
    expect(step.refused()).toEqual([{ key: 'team/a', reason: 'component' }]);
  });

  it('a marker removed outside is refused; a revoked invitation, or no loss, is not; the changes pass as they are', () => {
    const step = onlyExpiredStep(true, () => undefined);
    const outside = (lost?: 'marker' | 'invitation') => ({ added: [], removed: [], fields: [], ...(lost ? { lost } : {}) });
    const changes = [
      { ...update(['a.com'], ['a.com'], [], {}, 'team/m'), outside: outside('marker') },
      { ...update(['a.com'], ['a.com'], [], {}, 'team/i'), outside: outside('invitation') },
      { ...update(['a.com'], ['a.com'], [], {}, 'team/n'), outside: outside() },
      update(['a.com'], ['a.com'], [], {}, 'team/o'),
    ];
    const passed = step.resolveLost(changes);
    expect(passed).toEqual(changes);
    expect(passed).not.toBe(changes);
    expect(step.refused()).toEqual([{ key: 'team/m', reason: 'marker-removed' }]);
  });
});
