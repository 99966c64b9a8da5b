/** A plan that shows a secret the service echoed is marked, still reads back, and is refused for apply --plan. */
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../support/plan.js';
import { markRedacted, refuseRedactedPlan } from '../../src/plan/redacted.js';
import { parsePlan, PlanFileError } from '../../src/plan/saved.js';
import { serializePlan } from '../../src/plan/encode.js';
import { createRedactor } from '../../src/redact.js';
import { live, liveMap, NOW, policy, TARGET } from './fixtures.js';

const SECRET = 'sk_live_marked_0123456789';
const redact = createRedactor([SECRET]);
const holds = (text: string): boolean => redact(text) !== text;

const plan = buildPlan({
  desired: [policy('team/a', ['a.com'], { scopeName: 'Team A' }), policy('team/b', ['b.com'], { scopeName: 'Team B' })],
  live: liveMap({ ...live('team/a', ['a.com']), scopeName: `Team ${SECRET}` }, live('team/b', ['b.com'])),
  pruned: [],
  target: TARGET,
  now: NOW,
});

describe('markRedacted', () => {
  it('names the scopes whose entries held a secret; the redacted text still reads back as a plan', () => {
    const marked = markRedacted(plan, holds);
    expect(marked.redacted).toEqual(['team/a']);
    const text = redact(serializePlan(marked));
    expect(text).not.toContain(SECRET);
    expect(parsePlan(text).redacted).toEqual(['team/a']);
  });

  it('leaves a plan without a secret as it is, and drops an older mark', () => {
    const clean = markRedacted({ ...plan, changes: plan.changes.filter((change) => change.key !== 'team/a'), scopes: [] }, holds);
    expect(clean.redacted).toBeUndefined();
    expect(markRedacted({ ...clean, redacted: ['team/x'] }, holds).redacted).toBeUndefined();
  });

  it('a secret outside every change and scope (the target) marks the plan with no scope named', () => {
    const clean = { ...plan, changes: plan.changes.filter((change) => change.key !== 'team/a') };
    expect(markRedacted({ ...clean, target: `https://${SECRET}.example` }, holds).redacted).toEqual([]);
  });

  it('looks at the plan entry by entry, never as one text of every scope (memory flat in the scopes)', () => {
    const scopes = Array.from({ length: 1000 }, (_, n) => ({ key: `team/s${n}`, fingerprint: 'f'.repeat(64) }));
    let longest = 0;
    const marked = markRedacted({ ...plan, scopes }, (text) => {
      longest = Math.max(longest, text.length);
      return holds(text);
    });
    expect(marked.redacted).toEqual(['team/a']);
    expect(longest).toBeLessThan(5_000);
  });

  it('refuseRedactedPlan refuses a marked plan, naming the scopes, and passes any other', () => {
    expect(() => refuseRedactedPlan(markRedacted(plan, holds))).toThrow(PlanFileError);
    expect(() => refuseRedactedPlan(markRedacted(plan, holds))).toThrow(/\(in team\/a\).*nothing was written/u);
    expect(() => refuseRedactedPlan(markRedacted(plan, () => false))).not.toThrow();
  });
});
