/**
 * Three-way drift, unit by unit (src/plan/drift.ts): the live state in the files' shape, the live
 * state taken as the last write, which side moved each domain and field, the domains kept under
 * `drift: keep`, and the scopes that may have lost their marker outside. Pure: no git, no service.
 */
import { describe, expect, it } from 'vitest';
import { classifyDrift, liveAsWritten, liveStateLike, mergedDomains } from '../../src/plan/drift.js';
import { stateDigest, type WrittenState } from '../../src/plan/ownership.js';
import { live } from './fixtures.js';
import type { LiveScope } from '../../src/service/types.js';

const applied: WrittenState = { scopeType: 'team', scope: 'a', componentId: 'cmp_1', domains: ['a.com', 'b.com'] };
const marker = { owner: 'default', commit: 'c0ffee', digest: stateDigest(applied) };
const liveWith = (domains: string[], extra: Partial<LiveScope> = {}): LiveScope => ({ ...live('team/a', domains), ...extra });

describe('liveStateLike', () => {
  it('leaves out the name and metadata the base does not manage, whatever the service shows', () => {
    const state = liveStateLike(applied, liveWith(['x.com'], { scopeName: 'Shown', metadata: { tier: 'gold' } }));
    expect(Object.keys(state).sort()).toEqual(['componentId', 'domains', 'scope', 'scopeType']);
  });

  it('takes the managed name and only the managed metadata keys from the service', () => {
    const base = { ...applied, scopeName: 'Mine', metadata: { tier: 'gold' } };
    const state = liveStateLike(base, liveWith(['a.com'], { scopeName: 'Theirs', metadata: { tier: 'silver', other: 'x' } }));
    expect(state).toEqual({ ...applied, domains: ['a.com'], scopeName: 'Theirs', metadata: { tier: 'silver' } });
    expect(liveStateLike(base, liveWith(['a.com'], { scopeName: null })).scopeName).toBeUndefined();
  });

  it('takes the component the service shows, else the base\'s', () => {
    expect(liveStateLike(applied, liveWith([], { componentId: 'cmp_9' })).componentId).toBe('cmp_9');
    expect(liveStateLike(applied, liveWith([])).componentId).toBe('cmp_1');
  });
});

describe('liveAsWritten', () => {
  it('is null without an active invitation, even when the marker is the digest of an empty list', () => {
    const cleared = { ...applied, domains: [] };
    const off: LiveScope = { ...liveWith([]), autojoin: null };
    expect(liveAsWritten(applied, off, { ...marker, digest: stateDigest(cleared) })).toBeNull();
    expect(liveAsWritten(applied, liveWith([]), { ...marker, digest: stateDigest(cleared) })).toEqual(cleared);
  });

  it('is null for a marker without a digest', () => {
    expect(liveAsWritten(applied, liveWith(['a.com', 'b.com']), { owner: 'default' })).toBeNull();
  });

  it('is the state without a name when the service shows none (null) and the write managed none', () => {
    expect(liveAsWritten(applied, liveWith(['a.com', 'b.com'], { scopeName: null }), marker)).toStrictEqual(applied);
  });
});

describe('classifyDrift: what moved outside', () => {
  const named = { ...applied, scopeName: 'A' };
  const namedMarker = { ...marker, digest: stateDigest(named) };

  it('counts a domain and a field together (one of each is still drift)', () => {
    const verdict = classifyDrift({ desired: named, live: liveWith(['a.com', 'b.com', 'x.com'], { scopeName: 'Renamed' }), marker: namedMarker });
    expect(verdict.outside).toEqual({ added: ['x.com'], removed: [], fields: [{ field: 'scopeName', before: 'A', after: 'Renamed' }] });
  });

  it('a component the service shows, changed outside, is drift of the componentId field', () => {
    const verdict = classifyDrift({ desired: applied, live: liveWith(['a.com', 'b.com'], { componentId: 'cmp_9' }), marker });
    expect(verdict).toEqual({ origin: 'drift', base: applied, outside: { added: [], removed: [], fields: [{ field: 'componentId', before: 'cmp_1', after: 'cmp_9' }] } });
  });

  it('a component changed on both sides is the files\' change: a conflict once something else moved outside', () => {
    const desired = { ...applied, componentId: 'cmp_2' };
    const verdict = classifyDrift({ desired, live: liveWith(['a.com', 'b.com', 'x.com'], { componentId: 'cmp_9' }), marker, lastApplied: applied });
    expect(verdict).toMatchObject({ origin: 'conflict', outside: { added: ['x.com'], fields: [] } });
  });

  it('a component changed in the files, which the service does not show, makes a domain added outside a conflict', () => {
    const desired = { ...applied, componentId: 'cmp_2' };
    expect(classifyDrift({ desired, live: liveWith(['a.com', 'b.com', 'x.com']), marker, lastApplied: applied }).origin).toBe('conflict');
  });

  it('a name equal on all three sides is no field change', () => {
    const verdict = classifyDrift({ desired: named, live: liveWith(['a.com', 'b.com', 'x.com'], { scopeName: 'A' }), marker: namedMarker });
    expect(verdict).toEqual({ origin: 'drift', base: named, outside: { added: ['x.com'], removed: [], fields: [] } });
  });

  it('a name changed in the files is theirs, also when the service shows yet another one', () => {
    const desired = { ...named, scopeName: 'B' };
    for (const shown of ['A', 'C']) {
      const verdict = classifyDrift({ desired, live: liveWith(['a.com', 'b.com', 'x.com'], { scopeName: shown }), marker: namedMarker, lastApplied: named });
      expect(verdict).toMatchObject({ origin: 'conflict', outside: { added: ['x.com'], fields: [] } });
    }
  });

  it('a name the state last applied did not manage, now managed, is the files\' change', () => {
    const verdict = classifyDrift({ desired: named, live: liveWith(['a.com', 'b.com', 'x.com'], { scopeName: 'Other' }), marker, lastApplied: applied });
    expect(verdict).toMatchObject({ origin: 'conflict', outside: { added: ['x.com'], fields: [] } });
  });

  it('managed metadata changed outside is drift of the metadata field, other keys left out', () => {
    const desired = { ...applied, metadata: { tier: 'gold' } };
    const scope = liveWith(['a.com', 'b.com'], { metadata: { tier: 'silver', other: 'x' } });
    const verdict = classifyDrift({ desired, live: scope, marker: { ...marker, digest: stateDigest(desired) } });
    expect(verdict.outside?.fields).toEqual([{ field: 'metadata', before: { tier: 'gold' }, after: { tier: 'silver' } }]);
  });
});

describe('mergedDomains', () => {
  it('does not bring back a domain the files kept and an admin removed', () => {
    expect(mergedDomains(applied, { ...applied, domains: ['a.com', 'b.com', 'c.com'] }, ['a.com'])).toEqual(['a.com', 'c.com']);
  });
});
