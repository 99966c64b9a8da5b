/**
 * threeWay (src/plan/three-way.ts) on its own: which changed scopes are drift or conflicts, what
 * `drift: revert` and `drift: keep` make of each, the scopes held until the state at their
 * marker's commit is known, and an admin's switch-off. Written for its mutation score (docs/testing.md).
 */
import { describe, expect, it } from 'vitest';
import { threeWay, type NeededScope } from '../../src/plan/three-way.js';
import { compareScope, declaredDesired, prunedDesired } from '../../src/plan/diff.js';
import { MARKER_KEYS, stateDigest, writtenStateOf, type WrittenState } from '../../src/plan/ownership.js';
import type { DriftMode, Policy } from '../../src/policy/types.js';
import type { LiveScope } from '../../src/service/types.js';
import { live, noAutojoin, policy } from './fixtures.js';

const COMMIT = 'c'.repeat(40);
const files = policy('team/a', ['a.com', 'b.com'], { scopeName: 'Team A' });
const applied = writtenStateOf(files);

const metadataOf = (state: WrittenState | null, extra: Record<string, string> = {}): Record<string, string> => ({
  [MARKER_KEYS.owner]: 'default',
  ...(state ? { [MARKER_KEYS.digest]: stateDigest(state) } : {}),
  ...extra,
});
const liveWith = (domains: string[], metadata: Record<string, string> = metadataOf(applied, { [MARKER_KEYS.commit]: COMMIT }), extra: Partial<LiveScope> = {}): LiveScope => ({
  ...live('team/a', domains, 'inv-a'),
  scopeName: 'Team A',
  metadata,
  ...extra,
});
const mode = (drift: DriftMode) => (): DriftMode => drift;

/** Sorts one scope: its two-way change first, as the plan builder does. */
function sortOne(desiredPolicy: Policy, scope: LiveScope | undefined, drift: DriftMode = 'revert', owner = 'default') {
  const held: [string, NeededScope][] = [];
  const three = threeWay(owner, mode(drift), (commit, needed) => held.push([commit, needed]));
  const desired = declaredDesired(desiredPolicy);
  const change = compareScope(desired, scope, owner);
  return { three, change, sorted: three.sort(desired, scope, change), held };
}

describe('threeWay.sort, files unchanged since the marker', () => {
  it('a domain added outside is drift: revert writes the files, tagged; keep leaves it and reports it', () => {
    const revert = sortOne(files, liveWith(['a.com', 'b.com', 'x.com']));
    expect(revert.sorted).toMatchObject({ kind: 'update', origin: 'drift', outside: { added: ['x.com'], removed: [], fields: [] }, after: ['a.com', 'b.com'] });
    expect(revert.three.kept).toEqual([]);
    const keep = sortOne(files, liveWith(['a.com', 'b.com', 'x.com']), 'keep');
    expect(keep.sorted).toBeNull();
    expect(keep.three.kept).toEqual([
      { key: 'team/a', origin: 'drift', live: ['a.com', 'b.com', 'x.com'], outside: { added: ['x.com'], removed: [], fields: [] }, scopeName: 'Team A', source: files.source },
    ]);
  });

  it('a scope that matches is no change either way; no scope is held', () => {
    for (const drift of ['revert', 'keep'] as const) {
      const same = sortOne(files, liveWith(['a.com', 'b.com']), drift);
      expect(same.sorted).toBeNull();
      expect(same.three.kept).toEqual([]);
      expect(same.three.needed()).toEqual(new Map());
    }
  });

  it('a report without a name or a source leaves them out', () => {
    const bare = policy('team/a', ['a.com', 'b.com'], { source: undefined as unknown as Policy['source'] });
    const keep = sortOne(bare, liveWith(['a.com', 'b.com', 'x.com'], metadataOf(writtenStateOf(bare), { [MARKER_KEYS.commit]: COMMIT }), { scopeName: undefined }), 'keep');
    expect(keep.sorted).toBeNull();
    expect(keep.three.kept).toStrictEqual([{ key: 'team/a', origin: 'drift', live: ['a.com', 'b.com', 'x.com'], outside: { added: ['x.com'], removed: [], fields: [] } }]);
  });

  it('a name changed outside under keep is kept too, not written back', () => {
    const keep = sortOne(files, liveWith(['a.com', 'b.com'], undefined, { scopeName: 'Renamed' }), 'keep');
    expect(keep.change).toMatchObject({ fieldChanges: [{ field: 'scopeName', before: 'Renamed', after: 'Team A' }] });
    expect(keep.sorted).toBeNull();
    expect(keep.three.kept).toMatchObject([{ key: 'team/a', origin: 'drift', outside: { fields: [{ field: 'scopeName', before: 'Team A', after: 'Renamed' }] } }]);
  });

  it('entries that expired since the write: the files on the day of the write are the base, with no git read', () => {
    const today = policy('team/a', ['a.com'], { scopeName: 'Team A', expired: [{ domain: 'b.com', expires: '2026-02-01' }] });
    const marker = metadataOf(applied, { [MARKER_KEYS.commit]: COMMIT, [MARKER_KEYS.applied]: '2026-01-15' });
    const revert = sortOne(today, liveWith(['a.com', 'b.com', 'x.com'], marker));
    expect(revert.held).toEqual([]);
    expect(revert.sorted).toMatchObject({ kind: 'update', origin: 'conflict', outside: { added: ['x.com'], removed: [] }, after: ['a.com'] });
    const keep = sortOne(today, liveWith(['a.com', 'b.com', 'x.com'], marker), 'keep');
    expect(keep.sorted).toMatchObject({ kind: 'update', origin: 'conflict', after: ['a.com', 'x.com'] });
  });
});

describe('threeWay.sort passes the two-way change on as it is', () => {
  const drifted = ['a.com', 'b.com', 'x.com'];
  it.each([
    ['no live state', undefined],
    ['another owner’s marker', liveWith(drifted, { ...metadataOf(applied), [MARKER_KEYS.owner]: 'ops' })],
    ['a marker without a digest', liveWith(drifted, metadataOf(null, { [MARKER_KEYS.commit]: COMMIT }))],
    ['no marker', liveWith(drifted, {})],
    ['no autojoin, nor a switched-off marker', noAutojoin('team/a')],
  ])('%s', (_name, scope) => {
    const sorted = sortOne(files, scope, 'keep');
    expect(sorted.sorted).toBe(sorted.change);
    expect(sorted.three.kept).toEqual([]);
  });

  it('a pruned scope', () => {
    const three = threeWay('default', mode('keep'));
    const desired = prunedDesired({ ...files, domains: [], explicitEmpty: false });
    const scope = liveWith(['a.com', 'b.com', 'x.com']);
    const change = compareScope(desired, scope);
    expect(change?.kind).toBe('clear');
    expect(three.sort(desired, scope, change)).toBe(change);
    expect(three.kept).toEqual([]);
  });

  it('files changed, live state as last written: this repository’s change, with no git read', () => {
    const changed = policy('team/a', ['a.com', 'b.com', 'c.com'], { scopeName: 'Team A' });
    const sorted = sortOne(changed, liveWith(['a.com', 'b.com']), 'keep');
    expect(sorted.sorted).toBe(sorted.change);
    expect(sorted.sorted).not.toHaveProperty('origin');
    expect(sorted.held).toEqual([]);
  });

  it('files and live state both changed, the marker naming no commit: the change as it is, not held', () => {
    const changed = policy('team/a', ['a.com', 'b.com', 'c.com'], { scopeName: 'Team A' });
    const sorted = sortOne(changed, liveWith(['a.com'], metadataOf(applied)), 'keep');
    expect(sorted.sorted).toBe(sorted.change);
    expect(sorted.three.needed()).toEqual(new Map());
  });
});

describe('threeWay held scopes (files and live state both changed since the marker)', () => {
  const changed = policy('team/a', ['a.com', 'b.com', 'c.com'], { scopeName: 'Team A' });

  it('holds the scope, tells of it at once, and groups what it needs by commit', () => {
    const held: [string, NeededScope][] = [];
    const three = threeWay('default', mode('revert'), (commit, needed) => held.push([commit, needed]));
    const other = policy('team/b', ['b.com', 'z.com']);
    const otherLive: LiveScope = { ...live('team/b', ['y.com'], 'inv-b'), metadata: metadataOf(writtenStateOf(policy('team/b', ['b.com'])), { [MARKER_KEYS.commit]: 'd'.repeat(40), [MARKER_KEYS.applied]: '2026-01-02' }) };
    const third = policy('team/c', ['c.com', 'q.com']);
    const thirdLive: LiveScope = { ...live('team/c', ['w.com'], 'inv-c'), metadata: metadataOf(writtenStateOf(policy('team/c', ['c.com'])), { [MARKER_KEYS.commit]: COMMIT }) };
    for (const [desiredPolicy, scope] of [[changed, liveWith(['a.com'])], [other, otherLive], [third, thirdLive]] as const) {
      const desired = declaredDesired(desiredPolicy);
      expect(three.sort(desired, scope, compareScope(desired, scope))).toBe('held');
    }
    expect(held).toEqual([
      [COMMIT, { key: 'team/a', file: changed.source.file }],
      ['d'.repeat(40), { key: 'team/b', file: other.source.file, applied: '2026-01-02' }],
      [COMMIT, { key: 'team/c', file: third.source.file }],
    ]);
    expect(three.needed()).toEqual(
      new Map([
        [COMMIT, [{ key: 'team/a', file: changed.source.file }, { key: 'team/c', file: third.source.file }]],
        ['d'.repeat(40), [{ key: 'team/b', file: other.source.file, applied: '2026-01-02' }]],
      ]),
    );
    const asked: unknown[] = [];
    three.resolve((commit, key, day) => {
      asked.push([commit, key, day]);
      return null;
    });
    expect(asked).toEqual([
      [COMMIT, 'team/a', undefined],
      ['d'.repeat(40), 'team/b', '2026-01-02'],
      [COMMIT, 'team/c', undefined],
    ]);
  });

  it('a conflict: revert writes the files, tagged; keep writes the files’ change on top of the live state', () => {
    const revert = sortOne(changed, liveWith(['a.com', 'x.com']));
    expect(revert.sorted).toBe('held');
    expect(revert.three.resolve(() => applied)).toMatchObject([{ kind: 'update', origin: 'conflict', outside: { added: ['x.com'], removed: ['b.com'] }, after: ['a.com', 'b.com', 'c.com'] }]);
    const keep = sortOne(changed, liveWith(['a.com', 'x.com']), 'keep');
    expect(keep.three.resolve(() => applied)).toMatchObject([{ kind: 'update', origin: 'conflict', after: ['a.com', 'c.com', 'x.com'] }]);
    expect(keep.three.kept).toEqual([]);
  });

  it('files and live state made the same removal, and more outside: drift, resolved from the state at the commit, kept under keep', () => {
    const dropped = policy('team/a', ['a.com'], { scopeName: 'Team A' });
    const keep = sortOne(dropped, liveWith(['a.com', 'x.com']), 'keep');
    expect(keep.sorted).toBe('held');
    // files: -b.com; outside: -b.com +x.com: only x.com is the outside's own
    expect(keep.three.resolve(() => applied)).toEqual([]);
    expect(keep.three.kept).toMatchObject([{ key: 'team/a', origin: 'drift', live: ['a.com', 'x.com'], outside: { added: ['x.com'], removed: [] } }]);
    const revert = sortOne(dropped, liveWith(['a.com', 'x.com']));
    expect(revert.three.resolve(() => applied)).toMatchObject([{ kind: 'update', origin: 'drift', after: ['a.com'] }]);
  });

  it('holds a scope without being told of it (no listener)', () => {
    const three = threeWay('default', mode('revert'));
    const desired = declaredDesired(changed);
    const scope = liveWith(['a.com', 'x.com']);
    expect(three.sort(desired, scope, compareScope(desired, scope))).toBe('held');
    expect([...three.needed().keys()]).toEqual([COMMIT]);
  });

  it('the state at the commit unknown (null): the change as it is', () => {
    const revert = sortOne(changed, liveWith(['a.com', 'x.com']));
    expect(revert.three.resolve(() => null)).toEqual([revert.change]);
  });

  it('a component changed in the files, which the service does not show, is written (taken from the state at the commit)', () => {
    const moved = policy('team/a', ['a.com', 'b.com'], { scopeName: 'Team A', componentId: 'cmp_2' });
    const sorted = sortOne(moved, liveWith(['a.com', 'b.com']));
    expect(sorted.change).toBeNull();
    expect(sorted.sorted).toBe('held');
    expect(sorted.three.resolve(() => applied)).toMatchObject([{ kind: 'update', before: ['a.com', 'b.com'], after: ['a.com', 'b.com'], fieldChanges: [{ field: 'componentId', before: 'cmp_1', after: 'cmp_2' }] }]);
    expect(sorted.three.resolve(() => ({ ...applied, componentId: 'cmp_2' }))).toEqual([]);
    expect(sorted.three.resolve(() => null)).toEqual([]);
    // A change of the domains too is kept as it is (the component goes with any write).
    const both = sortOne(policy('team/a', ['a.com', 'b.com', 'c.com'], { scopeName: 'Team A', componentId: 'cmp_2' }), liveWith(['a.com', 'x.com']));
    expect(both.sorted).toBe('held');
    expect(both.three.resolve(() => applied)).toMatchObject([{ kind: 'update', after: ['a.com', 'b.com', 'c.com'], origin: 'conflict' }]);
    // Where the service shows the component, the differ compares it: nothing is forced.
    const shown = sortOne(moved, liveWith(['a.com', 'b.com'], undefined, { componentId: 'cmp_2' }));
    expect(shown.change).toBeNull();
    expect(shown.sorted).toBe('held');
    expect(shown.three.resolve(() => applied)).toEqual([]);
  });
});

describe('an admin’s switch-off (a deactivated invitation with this owner’s marker)', () => {
  const off = (state: WrittenState | null, owner = 'default'): LiveScope => ({ ...noAutojoin('team/a'), deactivatedMetadata: { ...metadataOf(state), [MARKER_KEYS.owner]: owner } });

  it('files unchanged: drift; revert creates it again tagged, keep leaves it off', () => {
    const revert = sortOne(files, off(applied));
    expect(revert.sorted).toMatchObject({ kind: 'create', origin: 'drift', outside: { added: [], removed: ['a.com', 'b.com'], fields: [] } });
    const keep = sortOne(files, off(applied), 'keep');
    expect(keep.sorted).toBeNull();
    expect(keep.three.kept).toMatchObject([{ key: 'team/a', origin: 'drift', outside: { removed: ['a.com', 'b.com'] } }]);
  });

  it('files changed too: a conflict, the domains removed being the files’ (no state at a commit)', () => {
    const changed = policy('team/a', ['a.com', 'c.com'], { scopeName: 'Team A' });
    expect(sortOne(changed, off(applied)).sorted).toMatchObject({ kind: 'create', origin: 'conflict', outside: { removed: ['a.com', 'c.com'] } });
    const keep = sortOne(changed, off(applied), 'keep');
    expect(keep.sorted).toBeNull();
    expect(keep.three.kept).toMatchObject([{ key: 'team/a', origin: 'conflict' }]);
  });

  it('is none when the marker is another owner’s, has no digest, or is of a clear from here', () => {
    for (const scope of [off(applied, 'ops'), off(null), off({ ...applied, domains: [] })]) {
      const sorted = sortOne(files, scope, 'keep');
      expect(sorted.sorted).toBe(sorted.change);
      expect(sorted.sorted).toMatchObject({ kind: 'create' });
      expect(sorted.sorted).not.toHaveProperty('origin');
    }
  });

  it('is none for a pruned scope, or no change', () => {
    const three = threeWay('default', mode('keep'));
    const desired = prunedDesired({ ...files, domains: [], explicitEmpty: false });
    expect(three.sort(desired, off(applied), null)).toBeNull();
    expect(three.sort(declaredDesired(files), off(applied), null)).toBeNull();
    expect(three.kept).toEqual([]);
  });
});
