/**
 * src/plan/redacted.ts where test/plan/redacted.test.ts does not reach: a secret in a scope's
 * entry alone, the order of the names, and the refusal's words for no scope, a few and many.
 * Written for its mutation score (docs/testing.md).
 */
import { describe, expect, it } from 'vitest';
import { markRedacted, refuseRedactedPlan } from '../../src/plan/redacted.js';
import type { Plan } from '../../src/plan/types.js';
import { samplePlan } from './fixtures.js';

const SECRET = 'sk_live_units_5e1f';
const holds = (text: string): boolean => text.includes(SECRET);

/** @returns the message refuseRedactedPlan throws for a plan marked with `redacted` */
function refusal(redacted: string[]): string {
  try {
    refuseRedactedPlan({ ...samplePlan(), redacted });
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('not refused');
}

const TAIL = ": it is not a faithful record of the live state, so it is not applied; nothing was written. Take the secret out of the service (apply from the policy files sets the scope's name and metadata to the file's), then make a new plan";

describe('markRedacted', () => {
  it('a secret in a scope’s entry alone names that scope', () => {
    const plan = samplePlan();
    const scopes = [...plan.scopes, { key: 'team/z', fingerprint: SECRET }];
    expect(markRedacted({ ...plan, scopes }, holds).redacted).toEqual(['team/z']);
  });

  it('names the scopes sorted, each once, whichever entry held the secret', () => {
    const plan = samplePlan();
    const changes = plan.changes.map<Plan["changes"][number]>((change) => (change.key === "team/c" ? { ...change, scopeName: SECRET } : change));
    const scopes = [...plan.scopes, { key: 'team/b', fingerprint: SECRET }, { key: 'team/c', fingerprint: SECRET }];
    expect(markRedacted({ ...plan, changes, scopes }, holds).redacted).toEqual(['team/b', 'team/c']);
  });
});

describe('refuseRedactedPlan', () => {
  it('a plan marked with no scope: refused without a list', () => {
    expect(refusal([])).toBe(`the saved plan shows *** where the service showed a secret of this run${TAIL}`);
  });

  it('names up to five scopes, comma-separated; more end with an ellipsis', () => {
    expect(refusal(['team/a', 'team/b'])).toBe(`the saved plan shows *** where the service showed a secret of this run (in team/a, team/b)${TAIL}`);
    const five = ['team/a', 'team/b', 'team/c', 'team/d', 'team/e'];
    expect(refusal(five)).toBe(`the saved plan shows *** where the service showed a secret of this run (in ${five.join(', ')})${TAIL}`);
    expect(refusal([...five, 'team/f'])).toBe(`the saved plan shows *** where the service showed a secret of this run (in ${five.join(', ')}, …)${TAIL}`);
  });
});
