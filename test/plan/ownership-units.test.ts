/**
 * src/plan/ownership.ts where test/plan/ownership.test.ts does not reach: a marker's malformed
 * fields left out, the deactivated invitation's marker, the key list's encoding, the managed
 * metadata picked from the live one, what a scope's answer shows of its owner (shard parts) and
 * what one plan's reads show of the service (readLimits). Written for its mutation score
 * (docs/testing.md).
 */
import { describe, expect, it } from 'vitest';
import {
  CANNOT_READ,
  deactivatedMarker,
  encodeKeys,
  managedLiveMetadata,
  markerOf,
  metadataToWrite,
  ownershipStatus,
  pickMetadata,
  readLimits,
  stateDigest,
  unknownOwnershipOf,
  writtenStateOf,
} from '../../src/plan/ownership.js';
import type { LiveScope } from '../../src/service/types.js';
import { live, noAutojoin } from './fixtures.js';

const OWNER = 'autojoin-sync.owner';
const state = { scopeType: 'team', scope: 'a', componentId: 'cmp_1', domains: ['B.com', 'a.com.'] };
const withMetadata = (metadata: unknown): LiveScope => ({ ...live('team/a', ['a.com']), metadata });
const switchedOff = (deactivatedMetadata: unknown): LiveScope => ({ ...noAutojoin('team/a'), deactivatedMetadata });

describe('markerOf: malformed fields', () => {
  it('leaves out an empty or non-string commit or digest', () => {
    for (const bad of ['', 7, ['abc']]) {
      expect(markerOf({ [OWNER]: 'me', 'autojoin-sync.commit': bad, 'autojoin-sync.digest': bad })).toStrictEqual({ owner: 'me' });
    }
  });

  it('keeps `applied` only as a whole YYYY-MM-DD string', () => {
    for (const bad of ['x2026-03-01', '2026-03-01x', '2026-3-01', ['2026-03-01']]) {
      expect(markerOf({ [OWNER]: 'me', 'autojoin-sync.applied': bad })).toStrictEqual({ owner: 'me' });
    }
  });

  it('reads `keys`: empty as none, %2C (either case) and %25 decoded; a non-string as absent', () => {
    expect(markerOf({ [OWNER]: 'me', 'autojoin-sync.keys': '' })).toStrictEqual({ owner: 'me', keys: [] });
    expect(markerOf({ [OWNER]: 'me', 'autojoin-sync.keys': '100%25,a%2cb,c%2Cd' })?.keys).toEqual(['100%', 'a,b', 'c,d']);
    expect(markerOf({ [OWNER]: 'me', 'autojoin-sync.keys': ['a'] })).toStrictEqual({ owner: 'me' });
  });
});

describe('encodeKeys', () => {
  it('sorts, and percent-encodes a % before a comma, so each decodes back', () => {
    const keys = ['z', '100%', 'a,b', '%2C'];
    const encoded = encodeKeys(keys);
    expect(encoded).toBe('%252C,100%25,a%2Cb,z');
    expect(keys).toEqual(['z', '100%', 'a,b', '%2C']);
    expect(markerOf({ [OWNER]: 'me', 'autojoin-sync.keys': encoded })?.keys).toEqual(['%2C', '100%', 'a,b', 'z']);
  });
});

describe('deactivatedMarker', () => {
  it('reads the switched-off invitation’s marker only when no invitation is active', () => {
    expect(deactivatedMarker(switchedOff({ [OWNER]: 'other' }))).toEqual({ owner: 'other' });
    expect(deactivatedMarker({ ...withMetadata({ [OWNER]: 'me' }), deactivatedMetadata: { [OWNER]: 'other' } })).toBeNull();
    expect(deactivatedMarker(switchedOff({ team: 'x' }))).toBeNull();
    expect(deactivatedMarker(undefined)).toBeNull();
  });
});

describe('writtenStateOf and the digest', () => {
  it('takes the managed fields only, scopeName and metadata only when set', () => {
    const source = { ...state, scopeName: 'A', metadata: { tier: 1 }, before: ['x.com'], kind: 'update' };
    expect(writtenStateOf(source)).toStrictEqual({ ...state, scopeName: 'A', metadata: { tier: 1 } });
    expect(writtenStateOf({ ...state, before: [] } as typeof state)).toStrictEqual(state);
  });

  it('is sha256 in hex of the canonical text (a marker written by any release reads the same)', () => {
    // sha256 of '{"componentId":"cmp_1","domains":["a.com","b.com"],"scope":"a","scopeType":"team"}'
    expect(stateDigest(state)).toBe('39651c69827af68b42c1757b0c045a8224447e163b7261df7d92887c793f238c');
  });
});

describe('metadataToWrite', () => {
  it('leaves out the commit and the day when it has none (outside git, older callers)', () => {
    expect(Object.keys(metadataToWrite({ owner: 'me', digest: 'd1' }))).toEqual([OWNER, 'autojoin-sync.digest', 'autojoin-sync.keys']);
  });
});

describe('the managed metadata of a live scope', () => {
  const metadata = { [OWNER]: 'me', 'autojoin-sync.keys': 'old', old: 1, tier: 2, team: 'x' };

  it('pickMetadata: the keys asked for that the live metadata holds, in the order asked, never the marker’s', () => {
    expect(pickMetadata(metadata, ['tier', 'absent', 'old', OWNER])).toStrictEqual({ tier: 2, old: 1 });
    expect(Object.keys(pickMetadata(metadata, ['tier', 'old']))).toEqual(['tier', 'old']);
    expect(pickMetadata('text', ['tier'])).toStrictEqual({});
  });

  it('managedLiveMetadata: the policy’s keys now and the last write’s', () => {
    expect(managedLiveMetadata(withMetadata(metadata), { tier: 9 })).toStrictEqual({ tier: 2, old: 1 });
    expect(managedLiveMetadata(withMetadata(metadata), undefined)).toStrictEqual({ old: 1 });
    expect(managedLiveMetadata(withMetadata({ tier: 2, team: 'x' }), { tier: 9 })).toStrictEqual({ tier: 2 });
    expect(managedLiveMetadata(undefined, { tier: 9 })).toStrictEqual({});
  });
});

describe('ownershipStatus', () => {
  it('noMetadata when the answer shows none, marked when it names an owner, unmarked otherwise', () => {
    expect(ownershipStatus(undefined)).toBe('noMetadata');
    expect(ownershipStatus(live('team/a', ['a.com']))).toBe('noMetadata');
    expect(ownershipStatus(withMetadata({ [OWNER]: 'me' }))).toBe('marked');
    expect(ownershipStatus(withMetadata({ team: 'x' }))).toBe('unmarked');
    expect(ownershipStatus({ ...withMetadata({ team: 'x' }), deactivatedMetadata: { [OWNER]: 'me' } })).toBe('unmarked');
    expect(ownershipStatus(switchedOff({ [OWNER]: 'me' }))).toBe('marked');
    expect(ownershipStatus({ ...noAutojoin('team/a'), metadata: { [OWNER]: 'me' } })).toBe('noMetadata');
  });
});

describe('unknownOwnershipOf', () => {
  const changes = [
    { key: 'team/c', kind: 'update' },
    { key: 'team/a', kind: 'clear' },
    { key: 'team/n', kind: 'create' },
    { key: 'team/m', kind: 'update' },
  ];

  it('the changed scopes (not creates) whose answer showed no metadata, sorted, once another showed some', () => {
    for (const shown of ['marked', 'unmarked'] as const) {
      const scopes = [{ key: 'team/c', ownership: 'noMetadata' as const }, { key: 'team/a', ownership: 'noMetadata' as const }, { key: 'team/n', ownership: 'noMetadata' as const }, { key: 'team/m', ownership: shown }];
      expect(unknownOwnershipOf(changes, scopes)).toEqual(['team/a', 'team/c']);
    }
  });

  it('none when no scope showed metadata, or none was recorded', () => {
    expect(unknownOwnershipOf(changes, [{ key: 'team/c', ownership: 'noMetadata' }, { key: 'team/m' }])).toEqual([]);
    expect(unknownOwnershipOf(changes, [])).toEqual([]);
  });
});

describe('readLimits', () => {
  const hidden = (key: string): LiveScope => ({ ...live(key, ['a.com']), unshown: { metadata: true } });

  it('says once that ownership cannot be read when no answer shows metadata and one leaves the field out', () => {
    const limits = readLimits();
    limits.see('team/b', hidden('team/b'), true);
    limits.see('team/a', hidden('team/a'), true);
    limits.see('team/x', undefined, true);
    expect(limits.notes()).toEqual([CANNOT_READ.ownership]);
    expect(limits.unknownOwnership()).toEqual([]);
  });

  it('once another answer shows metadata (a switched-off invitation’s too): the changed scopes without it, sorted, and no note', () => {
    for (const shows of [withMetadata({}), switchedOff({})]) {
      const limits = readLimits();
      limits.see('team/c', hidden('team/c'), true);
      limits.see('team/a', hidden('team/a'), true);
      limits.see('team/u', hidden('team/u'), false);
      limits.see('team/s', { ...shows, key: 'team/s' }, false);
      expect(limits.unknownOwnership()).toEqual(['team/a', 'team/c']);
      expect(limits.notes()).toEqual([]);
    }
  });

  it('a scope without metadata that does not say it leaves the field out is no unknown; groups left out add the name note', () => {
    const limits = readLimits();
    limits.see('team/a', live('team/a', ['a.com']), true);
    limits.see('team/s', withMetadata({}), false);
    expect(limits.unknownOwnership()).toEqual([]);
    expect(limits.notes()).toEqual([]);
    limits.see('team/g', { ...live('team/g', ['a.com']), unshown: { groups: true } }, false);
    expect(limits.notes()).toEqual([CANNOT_READ.scopeName]);
    const none = readLimits();
    none.see('team/g', { ...switchedOff(undefined), unshown: { groups: true, metadata: true } }, true);
    expect(none.notes()).toEqual([]);
  });
});
