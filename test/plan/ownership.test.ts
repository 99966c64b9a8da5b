/** The ownership marker: reading it, the digest of the written state, and the metadata a write sends. */
import { describe, expect, it } from 'vitest';
import {
  canonicalWrittenState,
  keptMetadataOf,
  liveMarker,
  markerOf,
  metadataToWrite,
  stateDigest,
  unmarkedMetadata,
} from '../../src/plan/ownership.js';
import { live, noAutojoin } from './fixtures.js';

const state = { scopeType: 'team', scope: 'a', componentId: 'cmp_1', domains: ['B.com', 'a.com.'] };

describe('markerOf', () => {
  it('reads owner, commit and digest', () => {
    const metadata = { 'autojoin-sync.owner': 'infra', 'autojoin-sync.commit': 'abc', 'autojoin-sync.digest': 'f00', team: 'x' };
    expect(markerOf(metadata)).toEqual({ owner: 'infra', commit: 'abc', digest: 'f00' });
  });

  it.each([
    ['null', null],
    ['an array', ['autojoin-sync.owner']],
    ['no owner', { 'autojoin-sync.commit': 'abc' }],
    ['an empty owner', { 'autojoin-sync.owner': '' }],
    ['an owner that is not a string', { 'autojoin-sync.owner': 7 }],
  ])('is null for %s', (_name, metadata) => {
    expect(markerOf(metadata)).toBeNull();
  });

  it('reads the marker only from an active autojoin invitation', () => {
    expect(liveMarker({ ...live('team/a', ['a.com']), metadata: { 'autojoin-sync.owner': 'me' } })).toEqual({ owner: 'me' });
    expect(liveMarker({ ...noAutojoin('team/a'), metadata: { 'autojoin-sync.owner': 'me' } })).toBeNull();
    expect(liveMarker(undefined)).toBeNull();
  });
});

describe('the digest of the written state', () => {
  it('has one canonical form: keys sorted, domains normalized and sorted, unmanaged fields absent', () => {
    expect(canonicalWrittenState(state)).toBe('{"componentId":"cmp_1","domains":["a.com","b.com"],"scope":"a","scopeType":"team"}');
    expect(canonicalWrittenState({ ...state, scopeName: 'A', metadata: { z: 1, a: { d: 1, c: 2 } } })).toBe(
      '{"componentId":"cmp_1","domains":["a.com","b.com"],"metadata":{"a":{"c":2,"d":1},"z":1},"scope":"a","scopeName":"A","scopeType":"team"}',
    );
  });

  it('is sha256 hex, stable under order, moved by every managed field', () => {
    const digest = stateDigest(state);
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(stateDigest({ ...state, domains: ['a.com', 'b.com'] })).toBe(digest);
    for (const other of [
      { ...state, componentId: 'cmp_2' },
      { ...state, scope: 'b' },
      { ...state, scopeType: 'org' },
      { ...state, domains: ['a.com'] },
      { ...state, scopeName: 'A' },
      { ...state, metadata: {} },
    ]) {
      expect(stateDigest(other)).not.toBe(digest);
    }
  });
});

describe('the metadata a write sends', () => {
  const marked = { team: 'x', 'autojoin-sync.owner': 'other', 'autojoin-sync.digest': 'old' };

  it('keeps the live keys no policy manages, without the old marker', () => {
    expect(unmarkedMetadata(marked)).toEqual({ team: 'x' });
    expect(unmarkedMetadata('text')).toEqual({});
    const withMetadata = { ...live('team/a', ['a.com']), metadata: marked };
    expect(keptMetadataOf(withMetadata, undefined)).toEqual({ team: 'x' });
    // Per key: a policy's metadata manages its own keys only; `team` is another writer's.
    expect(keptMetadataOf(withMetadata, { mine: 1 })).toEqual({ team: 'x' });
    expect(keptMetadataOf(withMetadata, { team: 'y' })).toBeUndefined();
    // A key the last write managed (the marker's `keys`) and the policy dropped is not kept.
    expect(keptMetadataOf({ ...withMetadata, metadata: { ...marked, 'autojoin-sync.owner': 'me', 'autojoin-sync.keys': 'team' } }, undefined)).toBeUndefined();
    expect(keptMetadataOf({ ...live('team/a', ['a.com']), metadata: { 'autojoin-sync.owner': 'me' } }, undefined)).toBeUndefined();
    expect(keptMetadataOf(noAutojoin('team/a'), undefined)).toBeUndefined();
  });

  it('is the kept keys, the policy metadata over them, then the marker with the day and the policy\'s keys', () => {
    expect(metadataToWrite({ kept: { team: 'x' }, owner: 'me', commit: 'c0ffee', digest: 'd1', applied: '2026-03-01' })).toEqual({
      team: 'x',
      'autojoin-sync.owner': 'me',
      'autojoin-sync.commit': 'c0ffee',
      'autojoin-sync.digest': 'd1',
      'autojoin-sync.applied': '2026-03-01',
      'autojoin-sync.keys': '',
    });
    expect(metadataToWrite({ managed: { tier: 1, 'a,b': 2 }, kept: { team: 'x' }, owner: 'me', digest: 'd1' })).toEqual({
      team: 'x',
      tier: 1,
      'a,b': 2,
      'autojoin-sync.owner': 'me',
      'autojoin-sync.digest': 'd1',
      'autojoin-sync.keys': 'a%2Cb,tier',
    });
    expect(markerOf({ 'autojoin-sync.owner': 'me', 'autojoin-sync.keys': 'a%2Cb,tier', 'autojoin-sync.applied': '2026-03-01' })).toEqual({ owner: 'me', keys: ['a,b', 'tier'], applied: '2026-03-01' });
  });

  it('lets no managed or kept key stand in for the marker', () => {
    const written = metadataToWrite({ kept: { 'autojoin-sync.owner': 'forged', 'autojoin-sync.commit': 'x' }, owner: 'me', digest: 'd1' });
    expect(written).toEqual({ 'autojoin-sync.owner': 'me', 'autojoin-sync.digest': 'd1', 'autojoin-sync.keys': '' });
  });
});
