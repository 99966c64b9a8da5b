/** `apply --only-expired` narrows a change to its removals by expiry (src/plan/only-expired.ts); a saved plan never carries the marker it writes back. */
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../support/plan.js';
import { encodePlan } from '../../src/plan/encode.js';
import { consistencyProblem } from '../../src/plan/checks.js';
import { live, liveMap, marked, NOW, policy, TARGET } from '../plan/fixtures.js';

describe('--only-expired in the plan builder', () => {
  const desired = [policy('team/a', ['a.com', 'new.com'], { expired: [{ domain: 'old.com', expires: '2025-01-01' }], scopeName: 'New name' })];
  const current = liveMap({ ...marked(live('team/a', ['a.com', 'old.com'])), scopeName: 'Old name' });

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
    const metadataLive = liveMap({ ...liveScope, scopeName: 'Old name', metadata: { 'autojoin-sync.owner': 'default', team: 'old' } });
    const plan = buildPlan({ desired: withMetadata, live: metadataLive, target: TARGET, now: NOW, onlyExpired: true });
    expect(plan.changes[0]).toMatchObject({ kind: 'update', after: ['a.com'] });
    expect(plan.changes[0]?.metadata).toEqual({ team: 'old' });
    expect(buildPlan({ desired: withMetadata, live: metadataLive, target: TARGET, now: NOW }).changes[0]?.metadata).toEqual({ team: 'new', cost: 'unreviewed' });
  });

  it('a saved plan holding keepMarker is refused', () => {
    const plan = buildPlan({ desired, live: current, target: TARGET, now: NOW, onlyExpired: true });
    expect(consistencyProblem(encodePlan(plan), 'plan.json')).toContain('keepMarker is never part of a saved plan');
  });
});
