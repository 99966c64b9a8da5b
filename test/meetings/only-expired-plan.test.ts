/** `apply --only-expired` narrows a change to its removals by expiry (src/plan/only-expired.ts); a saved plan never carries the marker it writes back. */
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../support/plan.js';
import { encodePlan } from '../../src/plan/encode.js';
import { consistencyProblem } from '../../src/plan/checks.js';
import { live, liveMap, marked, NOW, policy, TARGET } from '../plan/fixtures.js';
import { stateDigest, writtenStateOf } from '../../src/plan/ownership.js';

describe('--only-expired in the plan builder', () => {
  const desired = [policy('team/a', ['a.com', 'new.com'], { expired: [{ domain: 'old.com', expires: '2025-01-01' }], scopeName: 'New name' })];
  const current = liveMap({ ...marked(live('team/a', ['a.com', 'old.com'])), scopeName: 'Old name', componentId: 'cmp_live' });

  it('keeps only the removal by expiry: no added domain, the live name, the live marker written back', () => {
    const plan = buildPlan({ desired, live: current, target: TARGET, now: NOW, onlyExpired: true });
    expect(plan.changes).toHaveLength(1);
    expect(plan.changes[0]).toMatchObject({ kind: 'update', before: ['a.com', 'old.com'], after: ['a.com'], scopeName: 'Old name' });
    expect(plan.changes[0]?.keepMarker).toEqual({ 'autojoin-sync.owner': 'default' });
    expect(buildPlan({ desired, live: current, target: TARGET, now: NOW }).changes[0]?.after).toEqual(['a.com', 'new.com']);
  });

  it('writes the live metadata, not the file unreviewed metadata', () => {
    const withMetadata = [{ ...desired[0] as (typeof desired)[number], metadata: { team: 'new', cost: 'unreviewed' } }];
    const liveScope = marked(live('team/a', ['a.com', 'old.com']));
    const metadataLive = liveMap({ ...liveScope, scopeName: 'Old name', componentId: 'cmp_live', metadata: { 'autojoin-sync.owner': 'default', team: 'old' } });
    const plan = buildPlan({ desired: withMetadata, live: metadataLive, target: TARGET, now: NOW, onlyExpired: true });
    expect(plan.changes[0]).toMatchObject({ kind: 'update', after: ['a.com'] });
    expect(plan.changes[0]?.metadata).toEqual({ team: 'old' });
    expect(buildPlan({ desired: withMetadata, live: metadataLive, target: TARGET, now: NOW }).changes[0]?.metadata).toEqual({ team: 'new', cost: 'unreviewed' });
  });

  it('a componentId read neither live nor from the state last applied: the scope is refused by name', () => {
    const unshown = liveMap({ ...marked(live('team/a', ['a.com', 'old.com'])), scopeName: 'Old name' });
    const plan = buildPlan({ desired, live: unshown, target: TARGET, now: NOW, onlyExpired: true });
    expect(plan.changes.map((change) => change.key)).toEqual(['team/a']);
    expect(plan.onlyExpiredRefused).toEqual([{ key: 'team/a', reason: 'component' }]);
  });

  it('a componentId the service does not show is written as last applied (the marker\'s digest vouches for it)', () => {
    const file = policy('team/a', ['a.com'], { expired: [{ domain: 'old.com', expires: '2025-01-01' }] });
    // Applied on 2024-12-01, before old.com expired: the marker's digest is of the file's state that day.
    const digest = stateDigest(writtenStateOf({ ...file, domains: ['a.com', 'old.com'] }));
    const metadata = { 'autojoin-sync.owner': 'default', 'autojoin-sync.digest': digest, 'autojoin-sync.applied': '2024-12-01' };
    const plan = buildPlan({ desired: [file], live: liveMap({ ...live('team/a', ['a.com', 'old.com']), metadata }), target: TARGET, now: NOW, onlyExpired: true });
    expect(plan.onlyExpiredRefused).toBeUndefined();
    expect(plan.changes).toEqual([expect.objectContaining({ key: 'team/a', after: ['a.com'], componentId: 'cmp_1' })]);
  });

  it('without a marker, marked with HEAD only when HEAD\'s policy without its expired entries is what it writes', () => {
    const expiring = { expired: [{ domain: 'old.com', expires: '2025-01-01' }] };
    const unmarked = liveMap({ ...live('team/a', ['a.com', 'old.com']), componentId: 'cmp_1', metadata: {} });
    const same = buildPlan({ desired: [policy('team/a', ['a.com'], expiring)], live: unmarked, target: TARGET, now: NOW, onlyExpired: true });
    expect(same.onlyExpiredRefused).toBeUndefined();
    expect(same.changes).toEqual([expect.objectContaining({ key: 'team/a', after: ['a.com'] })]);
    expect(same.changes[0]?.keepMarker).toBeUndefined();
    // HEAD declares new.com too: marking the scope with HEAD would claim a state HEAD does not declare.
    const more = buildPlan({ desired: [policy('team/a', ['a.com', 'new.com'], expiring)], live: unmarked, target: TARGET, now: NOW, onlyExpired: true });
    expect(more.changes.map((change) => change.after)).toEqual([['a.com']]);
    expect(more.onlyExpiredRefused).toEqual([{ key: 'team/a', reason: 'remark' }]);
  });

  it('a saved plan holding keepMarker is refused', () => {
    const plan = buildPlan({ desired, live: current, target: TARGET, now: NOW, onlyExpired: true });
    expect(consistencyProblem(encodePlan(plan), 'plan.json')).toContain('keepMarker is never part of a saved plan');
  });
});
