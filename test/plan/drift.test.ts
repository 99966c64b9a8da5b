/** Three-way drift: which side changed a scope, measured from the state last applied. */
import { describe, expect, it } from 'vitest';
import { classifyDrift, liveAsWritten, mergedDomains } from '../../src/plan/drift.js';
import { stateDigest, writtenStateOf, type WrittenState } from '../../src/plan/ownership.js';
import { live, liveMap, noAutojoin, NOW, policy, TARGET } from './fixtures.js';
import { buildPlan } from '../support/plan.js';
import type { ScopeKey } from '../../src/scope.js';
import type { LiveScope } from '../../src/service/types.js';

const applied: WrittenState = { scopeType: 'team', scope: 'a', componentId: 'cmp_1', domains: ['a.com', 'b.com'] };
const marker = { owner: 'default', commit: 'c0ffee', digest: stateDigest(applied) };
const liveWith = (domains: string[], extra: object = {}) => ({ ...live('team/a', domains), ...extra });

describe('classifyDrift', () => {
  it('is a change when only the files moved, and needs no git to say so when the live state did not', () => {
    const desired = { ...applied, domains: ['a.com', 'b.com', 'c.com'] };
    expect(classifyDrift({ desired, live: liveWith(['a.com', 'b.com']), marker, lastApplied: applied })).toEqual({ origin: 'change' });
  });

  it('is drift when only the live state moved: an added and a removed domain, with modifiedAt', () => {
    const scope = liveWith(['a.com', 'x.com']);
    scope.autojoin = { invitationId: 'inv', acceptsCount: 0, modifiedAt: '2026-11-20T10:00:00.000Z' };
    const verdict = classifyDrift({ desired: applied, live: scope, marker });
    expect(verdict.origin).toBe('drift');
    expect(verdict.outside).toEqual({ added: ['x.com'], removed: ['b.com'], fields: [], modifiedAt: '2026-11-20T10:00:00.000Z' });
  });

  it('takes the digest of the files from the caller when given, with the same verdict as computing it', () => {
    const desired = { ...applied, domains: ['a.com', 'b.com', 'c.com'] };
    const sides = { desired, live: liveWith(['a.com']), marker, lastApplied: applied };
    expect(classifyDrift({ ...sides, desiredDigest: stateDigest(desired) })).toEqual(classifyDrift(sides));
    expect(classifyDrift({ ...sides, desired: applied, desiredDigest: stateDigest(applied) })).toEqual(classifyDrift({ ...sides, desired: applied }));
  });

  it('is a conflict when both moved, measured from the state at the marker commit', () => {
    const desired = { ...applied, domains: ['a.com', 'b.com', 'c.com'] };
    const verdict = classifyDrift({ desired, live: liveWith(['a.com']), marker, lastApplied: applied });
    expect(verdict.origin).toBe('conflict');
    expect(verdict.outside).toMatchObject({ added: [], removed: ['b.com'] });
  });

  it('is a change, not a guess, when both may have moved and the marker commit is gone', () => {
    const desired = { ...applied, domains: ['c.com'] };
    expect(classifyDrift({ desired, live: liveWith(['a.com']), marker, lastApplied: null })).toEqual({ origin: 'change' });
  });

  it('is no drift when the live state was edited back to the state last applied', () => {
    expect(classifyDrift({ desired: applied, live: liveWith(['b.com', 'a.com']), marker }).origin).toBe('change');
  });

  it('sees a managed name changed outside, but not a name the files do not manage', () => {
    const named = { ...applied, scopeName: 'Acme' };
    const namedMarker = { ...marker, digest: stateDigest(named) };
    const verdict = classifyDrift({ desired: named, live: liveWith(['a.com', 'b.com'], { scopeName: 'Renamed' }), marker: namedMarker });
    expect(verdict).toMatchObject({ origin: 'drift', outside: { fields: [{ field: 'scopeName', before: 'Acme', after: 'Renamed' }] } });
    expect(classifyDrift({ desired: applied, live: liveWith(['a.com', 'b.com'], { scopeName: 'Renamed' }), marker }).origin).toBe('change');
  });

  it('after adopt, puts only what moved outside since down to drift (the adopted change is not the files\' own)', () => {
    const adopted = { ...applied, domains: ['a.com', 'b.com', 'x.com'] }; // the files took in x.com; the marker is still the old one
    const verdict = classifyDrift({ desired: adopted, live: liveWith(['b.com', 'x.com']), marker, lastApplied: applied });
    expect(verdict).toMatchObject({ origin: 'drift', outside: { added: [], removed: ['a.com'] } });
  });

  it('makes a componentId change a change of the files (the service does not show it)', () => {
    const desired = { ...applied, componentId: 'cmp_2' };
    expect(classifyDrift({ desired, live: liveWith(['a.com', 'b.com']), marker, lastApplied: applied })).toEqual({ origin: 'change' });
  });
});

describe('mergedDomains (drift: keep on a conflict)', () => {
  it('applies the files\' change on top of the live state', () => {
    const desired = { ...applied, domains: ['a.com', 'c.com'] }; // files: -b.com +c.com
    expect(mergedDomains(applied, desired, ['a.com', 'b.com', 'x.com'])).toEqual(['a.com', 'c.com', 'x.com']);
  });
});

describe('writtenStateOf', () => {
  it('covers scopeName and metadata only when the policy manages them', () => {
    const policy = { scope: 'a', scopeType: 'team', componentId: 'c', domains: ['a.com'] };
    expect(writtenStateOf(policy)).toEqual({ scope: 'a', scopeType: 'team', componentId: 'c', domains: ['a.com'] });
    expect(writtenStateOf({ ...policy, scopeName: 'A', metadata: {} })).toMatchObject({ scopeName: 'A', metadata: {} });
  });
});

describe('liveAsWritten (issue 38: no git read when the live state is the last write)', () => {
  const desired = { ...applied, domains: ['a.com', 'b.com', 'c.com'] };

  it('is the state last written when the live state is it, whatever order the service lists the domains in', () => {
    expect(liveAsWritten(desired, liveWith(['b.com', 'a.com']), marker)).toEqual({ ...applied, domains: ['b.com', 'a.com'] });
  });

  it('finds the shape of the write: with the name it managed and the metadata of the marker\'s keys (never the marker\'s own)', () => {
    const written: WrittenState = { ...applied, scopeName: 'Team A', metadata: { tier: 'gold' } };
    const keyed = { ...marker, digest: stateDigest(written), keys: ['tier'] };
    const scope = liveWith(['a.com', 'b.com'], { scopeName: 'Team A', metadata: { tier: 'gold', other: 'theirs', 'autojoin-sync.owner': 'default' } });
    expect(liveAsWritten(desired, scope, keyed)).toEqual(written);
  });

  it('is null when anything moved outside since (a domain, the name), so the state comes from git', () => {
    expect(liveAsWritten(desired, liveWith(['a.com']), marker)).toBeNull();
    const named = { ...marker, digest: stateDigest({ ...applied, scopeName: 'Team A' }) };
    expect(liveAsWritten(desired, liveWith(['a.com', 'b.com'], { scopeName: 'Renamed' }), named)).toBeNull();
  });

  it('is null when the component changed in the files and the service does not show it (git tells the component written)', () => {
    expect(liveAsWritten({ ...desired, componentId: 'cmp_2' }, liveWith(['a.com', 'b.com']), marker)).toBeNull();
  });
});

describe('a scope this repository cleared, listed again, under drift: keep', () => {
  const files = policy('team/a', ['a.example'], { drift: 'keep' });
  const switchedOffWith = (digestOf: WrittenState): Map<ScopeKey, LiveScope> =>
    liveMap({ ...noAutojoin('team/a'), deactivatedMetadata: { 'autojoin-sync.owner': 'default', 'autojoin-sync.digest': stateDigest(digestOf) } });

  it('is created again: the clear was this repository change (its marker holds the digest of an empty list), not one made outside', () => {
    const plan = buildPlan({ desired: [files], live: switchedOffWith({ ...writtenStateOf(files), domains: [] }), target: TARGET, now: NOW });
    expect(plan.changes.map((change) => `${change.kind} ${change.key} ${change.after.join(',')}`)).toEqual(['create team/a a.example']);
    expect(plan.drift).toEqual([]);
  });

  it('stays off when an admin switched it off (the marker holds the digest of the domains): kept and reported', () => {
    const plan = buildPlan({ desired: [files], live: switchedOffWith(writtenStateOf(files)), target: TARGET, now: NOW });
    expect(plan.changes).toEqual([]);
    expect(plan.drift.map((report) => report.key)).toEqual(['team/a']);
  });
});
