/**
 * The differ (src/plan/diff.ts) row by row, and each field a change carries. Written for its
 * mutation score (docs/testing.md).
 */
import { describe, expect, it } from 'vitest';
import { compareScope, declaredDesired, forcedUpdate, prunedDesired, replaceScope, withAfter } from '../../src/plan/diff.js';
import { MARKER_KEYS } from '../../src/plan/ownership.js';
import type { Change } from '../../src/plan/types.js';
import type { LiveScope } from '../../src/service/types.js';
import { live, noAutojoin, policy } from './fixtures.js';

const files = (domains: string[], extra = {}) => declaredDesired(policy('team/a', domains, extra));
const owned = (domains: string[], extra: Partial<LiveScope> = {}): LiveScope => ({ ...live('team/a', domains, 'inv-a'), metadata: { [MARKER_KEYS.owner]: 'default' }, ...extra });

describe('compareScope', () => {
  it('no autojoin: a create of the domains wanted, none for an empty list', () => {
    expect(compareScope(files(['B.com', 'a.com']), undefined)).toEqual({
      kind: 'create',
      key: 'team/a',
      scope: 'a',
      scopeType: 'team',
      componentId: 'cmp_1',
      before: [],
      after: ['a.com', 'b.com'],
      reason: 'declared',
      source: { file: 'policies/a.autojoin.yaml', line: 1, column: 1 },
      explicitEmpty: false,
    });
    expect(compareScope(files(['a.com']), noAutojoin('team/a'))).toMatchObject({ kind: 'create', after: ['a.com'] });
    expect(compareScope(files([]), undefined)).toBeNull();
    expect(compareScope(files([]), noAutojoin('team/a'))).toBeNull();
  });

  it('a create over another owner’s switched-off scope shows the owner change; over none, or its own, it shows none', () => {
    const off = (owner: string): LiveScope => ({ ...noAutojoin('team/a'), deactivatedMetadata: { [MARKER_KEYS.owner]: owner } });
    expect(compareScope(files(['a.com']), off('ops'))?.fieldChanges).toEqual([{ field: 'owner', before: 'ops', after: 'default' }]);
    expect(compareScope(files(['a.com']), off('default'))).not.toHaveProperty('fieldChanges');
    expect(compareScope(files(['a.com']), off('ops'), 'ops')).not.toHaveProperty('fieldChanges');
    expect(compareScope(files([]), off('ops'))).toBeNull();
  });

  it('active with domains and [] wanted: a clear keeping its invitation; active with none: nothing', () => {
    expect(compareScope(files([]), owned(['x.com']))).toMatchObject({ kind: 'clear', before: ['x.com'], after: [], explicitEmpty: true, autojoin: { invitationId: 'inv-a' } });
    expect(compareScope(files([]), owned([]))).toBeNull();
    expect(compareScope(files([]), { ...owned(['x.com']), metadata: { [MARKER_KEYS.owner]: 'ops' } })?.fieldChanges).toEqual([{ field: 'owner', before: 'ops', after: 'default' }]);
    expect(compareScope(files([]), owned(['x.com']))).not.toHaveProperty('fieldChanges');
  });

  it('active and domains wanted: an update when domains, a field or the owner differ; none when all match', () => {
    expect(compareScope(files(['a.com', 'b.com']), owned(['b.com', 'a.com']))).toBeNull();
    expect(compareScope(files(['a.com', 'c.com']), owned(['a.com', 'b.com']))).toMatchObject({ kind: 'update', before: ['a.com', 'b.com'], after: ['a.com', 'c.com'], autojoin: { invitationId: 'inv-a' } });
    expect(compareScope(files(['a.com'], { scopeName: 'New' }), owned(['a.com'], { scopeName: 'Old' }))).toMatchObject({ kind: 'update', scopeName: 'New', fieldChanges: [{ field: 'scopeName', before: 'Old', after: 'New' }] });
    expect(compareScope(files(['a.com']), { ...owned(['a.com']), metadata: {} })).toMatchObject({ kind: 'update', fieldChanges: [{ field: 'owner', before: null, after: 'default' }] });
    expect(compareScope(files(['a.com']), owned(['a.com']), 'eng')).toMatchObject({ kind: 'update', fieldChanges: [{ field: 'owner', before: 'default', after: 'eng' }] });
    expect(compareScope(files(['a.com']), live('team/a', ['a.com']))).toBeNull();
  });

  it('an update’s before holds the file’s string for each domain both sides list', () => {
    const desired = files(['a.com', 'c.com', 'e.com']);
    const change = compareScope(desired, owned(['a.com', 'b.com', 'e.com', 'f.com']));
    expect(change?.before).toEqual(['a.com', 'b.com', 'e.com', 'f.com']);
    expect(change?.before[0]).toBe(desired.domains[0]);
    expect(change?.before[2]).toBe(desired.domains[2]);
    const shifted = compareScope(files(['b.com', 'd.com']), owned(['a.com', 'b.com', 'c.com', 'd.com']));
    expect(shifted?.before).toEqual(['a.com', 'b.com', 'c.com', 'd.com']);
  });

  it('a pruned scope is a clear with its reason and the commit that removed it, not an explicit []', () => {
    const gone = prunedDesired({ ...policy('team/a', []), explicitEmpty: false, removedBy: { commit: 'c'.repeat(40), date: '2026-01-01', subject: 'drop a' } });
    expect(compareScope(gone, owned(['x.com']))).toMatchObject({ kind: 'clear', reason: 'pruned', explicitEmpty: false, removedBy: { commit: 'c'.repeat(40) } });
    expect(compareScope(files([]), owned(['x.com']))).not.toHaveProperty('removedBy');
  });

  it('carries the name, the metadata and the live metadata it keeps only when there are some', () => {
    const plain = compareScope(files(['a.com']), undefined);
    expect(plain).not.toHaveProperty('scopeName');
    expect(plain).not.toHaveProperty('metadata');
    expect(plain).not.toHaveProperty('keptMetadata');
    expect(plain).not.toHaveProperty('autojoin');
    expect(plain).not.toHaveProperty('removalReasons');
    const rich = compareScope(files(['a.com'], { scopeName: 'A', metadata: { tier: 'gold' } }), owned(['b.com'], { metadata: { [MARKER_KEYS.owner]: 'default', theirs: 1, tier: 'silver' } }));
    expect(rich).toMatchObject({ scopeName: 'A', metadata: { tier: 'gold' }, keptMetadata: { theirs: 1 } });
  });

  it('names the expiry of each removed domain whose entry expired, and only those', () => {
    const expiring = files(['a.com'], { expired: [{ domain: 'B.com', expires: '2026-01-01' }, { domain: 'kept.com', expires: '2026-01-02' }] });
    expect(compareScope(expiring, owned(['a.com', 'b.com', 'c.com']))?.removalReasons).toEqual([{ domain: 'b.com', reason: 'expired 2026-01-01' }]);
    expect(compareScope(expiring, owned(['a.com', 'c.com']))).not.toHaveProperty('removalReasons');
    expect(compareScope(files(['a.com']), owned(['a.com', 'b.com']))).not.toHaveProperty('removalReasons');
  });
});

describe('replaceScope', () => {
  it('writes a matching scope again as an update with no domain change, reason replaced', () => {
    expect(replaceScope(files(['a.com']), owned(['a.com']))).toMatchObject({ kind: 'update', reason: 'replaced', before: ['a.com'], after: ['a.com'] });
    expect(replaceScope(files(['a.com']), owned(['a.com']))).not.toHaveProperty('fieldChanges');
  });

  it('has nothing to write without an active autojoin, without domains, or for a pruned scope', () => {
    expect(replaceScope(files(['a.com']), undefined)).toBeNull();
    expect(replaceScope(files(['a.com']), noAutojoin('team/a'))).toBeNull();
    expect(replaceScope(files([]), owned(['a.com']))).toBeNull();
    expect(replaceScope(prunedDesired({ ...policy('team/a', ['a.com']), domains: ['a.com'] }), owned(['a.com']))).toBeNull();
  });
});

describe('forcedUpdate and withAfter', () => {
  it('forcedUpdate keeps the domains and shows the fields', () => {
    expect(forcedUpdate(files(['a.com']), owned(['A.com']), [{ field: 'componentId', before: 'x', after: 'cmp_1' }])).toMatchObject({
      kind: 'update',
      before: ['a.com'],
      after: ['a.com'],
      fieldChanges: [{ field: 'componentId', before: 'x', after: 'cmp_1' }],
    });
  });

  const update = compareScope(files(['a.com', 'c.com']), owned(['a.com', 'b.com'])) as Change;
  const clear = compareScope(files([]), owned(['a.com'])) as Change;

  it('aims a change at another list; the live list itself is no change unless a field changes', () => {
    expect(withAfter(update, ['a.com', 'b.com', 'c.com'])).toMatchObject({ kind: 'update', after: ['a.com', 'b.com', 'c.com'] });
    expect(withAfter(update, ['a.com', 'b.com'])).toBeNull();
    expect(withAfter({ ...update, fieldChanges: [{ field: 'scopeName', before: 'x', after: 'y' }] }, ['a.com', 'b.com'])).toMatchObject({ kind: 'update', after: ['a.com', 'b.com'] });
  });

  it('an empty aim is a clear; a clear aimed at domains is an update', () => {
    expect(withAfter(update, [])).toMatchObject({ kind: 'clear', after: [] });
    expect(withAfter(clear, ['a.com', 'z.com'])).toMatchObject({ kind: 'update', after: ['a.com', 'z.com'] });
    expect(withAfter(clear, ['a.com'])).toBeNull();
  });

  it('a create aimed at other domains stays a create', () => {
    const create = compareScope(files(['a.com']), undefined) as Change;
    expect(withAfter(create, ['a.com', 'x.com'])).toMatchObject({ kind: 'create', after: ['a.com', 'x.com'] });
  });

  it('the aim is copied, not shared', () => {
    const aim = ['a.com', 'z.com'];
    const aimed = withAfter(update, aim);
    aim.push('later.com');
    expect(aimed?.after).toEqual(['a.com', 'z.com']);
  });
});
