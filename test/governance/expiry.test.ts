/**
 * Time-bound entries in the pure parts: the loader's desired state, the schema's messages, the
 * plan's reasons (and a saved plan's check of them), and fmt's canonical form.
 */
import { describe, expect, it } from 'vitest';
import { formatPolicyText, parsePolicySources } from '../../src/policy/index.js';
import { formatDiagnostic } from '../../src/render/diagnostics.js';
import { buildPlan } from '../support/plan.js';
import { parsePlan } from '../../src/plan/saved.js';
import { encodePlan, serializePlan, type PlanDocument } from '../../src/plan/encode.js';
import type { Plan } from '../../src/plan/types.js';
import { live, liveMap, NOW, TARGET } from '../plan/fixtures.js';
import { defined } from '../support/defined.js';
import { today } from '../../src/policy/clock.js';

const FILE = `scope: a
scopeType: team
componentId: c1
domains:
  - acme.com
  - domain: Contractor.Example
    expires: 2026-03-10
    reason: SEC-42
  - {domain: old.example, expires: 2026-02-01}
`;

const load = (text: string, day: string): ReturnType<typeof parsePolicySources> => parsePolicySources([{ file: 'a.autojoin.yaml', text }], { today: day });

describe('time-bound entries', () => {
  it('an entry past its expires day leaves the desired state; on its last day it stays', () => {
    expect(defined(load(FILE, '2026-03-01').policies[0])).toMatchObject({ domains: ['acme.com', 'contractor.example'], expired: [{ domain: 'old.example', expires: '2026-02-01' }] });
    expect(defined(load(FILE, '2026-03-10').policies[0]).domains).toEqual(['acme.com', 'contractor.example']);
    expect(defined(load(FILE, '2026-03-11').policies[0]).domains).toEqual(['acme.com']);
    expect(defined(load(FILE, '2026-01-01').policies[0]).expired).toBeUndefined();
  });

  it('every entry expired is a clear the file asked for (explicitEmpty)', () => {
    const policy = defined(load('scope: a\nscopeType: team\ncomponentId: c1\ndomains:\n  - {domain: old.example, expires: 2026-02-01}\n', '2026-03-01').policies[0]);
    expect(policy).toMatchObject({ domains: [], explicitEmpty: true });
  });

  it('says what is wrong with an entry: no calendar day, an unknown key, not a domain', () => {
    const text = 'scope: a\nscopeType: team\ncomponentId: c1\ndomains:\n  - {domain: a.example, expires: 2026-02-30}\n  - {domain: b.example, expiry: 2026-01-01}\n  - 5\n';
    expect(load(text, '2026-03-01').diagnostics.map(formatDiagnostic)).toEqual([
      'a.autojoin.yaml:5:5: error: expires: "2026-02-30" is not a calendar day; write YYYY-MM-DD, e.g. 2026-06-30',
      'a.autojoin.yaml:6:25: error: unknown key "expiry" in domains[1] (did you mean "expires"?); allowed keys: domain, expires, reason',
      'a.autojoin.yaml:7:5: error: domains[2]: expected a domain name (a string), got a number (5); quote it: "5"',
    ]);
  });

  it('AUTOJOIN_NOW fixes today; the clock otherwise', () => {
    expect(today({ AUTOJOIN_NOW: '2026-03-01' })).toBe('2026-03-01');
    expect(today({}, new Date('2030-01-02T23:59:00Z'))).toBe('2030-01-02');
    expect(() => today({ AUTOJOIN_NOW: '2026-13-01' })).toThrow('AUTOJOIN_NOW must be a day written YYYY-MM-DD');
  });
});

describe('the plan removes an expired entry with its reason', () => {
  const plan: Plan = buildPlan({
    desired: load(FILE, '2026-03-01').policies,
    live: liveMap(live('team/a', ['acme.com', 'contractor.example', 'old.example', 'manual.example'])),
    target: TARGET,
    now: NOW,
  });

  it('only the expired domain carries the reason; it round-trips through a saved plan', () => {
    expect(encodePlan(plan).changes[0]).toMatchObject({ removed: ['manual.example', 'old.example'], removalReasons: [{ domain: 'old.example', reason: 'expired 2026-02-01' }] });
    expect(parsePlan(serializePlan(plan))).toEqual(plan);
  });

  it('a saved plan whose reason names a domain it does not remove is refused', () => {
    const doc = JSON.parse(serializePlan(plan)) as PlanDocument;
    defined(doc.changes[0]).removalReasons = [{ domain: 'acme.com', reason: 'expired 2026-02-01' }];
    expect(() => parsePlan(JSON.stringify(doc), 'plan.json')).toThrow('removalReasons names acme.com, which is not removed');
  });
});

describe('fmt keeps time-bound entries', () => {
  it('sorts them with the others by domain, keys in canonical order, block style; a fixed point', () => {
    const text = 'scope: a\nscopeType: team\ncomponentId: c1\ndomains:\n  - zeta.com\n  - {reason: SEC-42, domain: Contractor.Example, expires: 2026-03-10}  # temp\n  - acme.com\n';
    const formatted = defined(formatPolicyText({ file: 'a.autojoin.yaml', text }).text);
    expect(formatted).toBe(
      'scope: a\nscopeType: team\ncomponentId: c1\ndomains:\n  - acme.com\n  - domain: contractor.example # temp\n    expires: 2026-03-10\n    reason: SEC-42\n  - zeta.com\n',
    );
    expect(formatPolicyText({ file: 'a.autojoin.yaml', text: formatted }).changed).toBe(false);
  });
});
