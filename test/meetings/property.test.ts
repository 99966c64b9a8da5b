/**
 * The meetings as a property (issue 33), in-process through the command layer: random policies
 * with expiring grants, `drift: keep|revert`, a deny rule or none, random days (AUTOJOIN_NOW,
 * never going back), random admin edits between runs (add, remove, switch off, another writer's
 * metadata key), and plan, apply and adopt in random order. After every step:
 *  - every list an apply wrote passes the file checks (domain checks, the rules), the entry and
 *    cross-scope rules included: no domain kept from the live state without an expiry where
 *    `requireExpiry` asks for one, no domain in more scopes than `maxScopesPerDomain` allows;
 *  - no expired entry is live after an apply that succeeded;
 *  - adopt never writes an expired or a forbidden domain, and its file passes validate (and
 *    fmt --check, which it passed before);
 *  - the live key no policy ever declared (`team-note`) survives every write, also under a
 *    marker an older release wrote (no `autojoin-sync.keys`: the keys are read at its commit).
 * Fixed seed (test/support/fast-check-seed.ts), a few runs: each step is a real CLI run.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkDomain } from '../../src/policy/domains.js';
import { repo, type Repo } from './support.js';
import { runs } from '../support/long.js';

const DAYS = ['2026-03-01', '2026-03-08', '2026-03-12', '2026-03-20', '2026-04-02'];
const GRANT_DATES = ['2026-03-05', '2026-03-10', '2026-03-15', '2026-03-30'];
const OUTSIDE = ['z.example', 'x.agency.example', 'co.uk', 'b.example', 'x.contractor.example'];
/** The rules `limits` adds: a contractor domain must expire, and no domain is in two scopes (team/beta holds b.example). */
const LIMITS = '  - name: contractors expire\n    requireExpiry: ["*.contractor.example"]\n    maxExpiryDays: 365\n  - name: one team per domain\n    maxScopesPerDomain: 1\n';

type Step =
  | { op: 'plan' | 'apply' | 'adopt' | 'only-expired' | 'off' | 'note' | 'legacy'; day: number }
  | { op: 'add' | 'remove'; day: number; domain: string };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ op: fc.constantFrom('plan', 'apply', 'adopt', 'only-expired', 'off', 'note', 'legacy' as const), day: fc.integer({ min: 0, max: DAYS.length - 1 }) }),
  fc.record({ op: fc.constantFrom('add', 'remove' as const), day: fc.integer({ min: 0, max: DAYS.length - 1 }), domain: fc.constantFrom(...OUTSIDE, 'a.example') }),
);

const caseArb = fc.record({
  drift: fc.constantFrom('keep', 'revert'),
  rule: fc.boolean(),
  limits: fc.boolean(),
  grants: fc.uniqueArray(fc.record({ domain: fc.constantFrom('g1.example', 'g2.example', 'g3.example'), expires: fc.constantFrom(...GRANT_DATES) }), { selector: (grant) => grant.domain, maxLength: 3 }),
  steps: fc.array(stepArb, { minLength: 1, maxLength: 5 }),
});

interface Case { drift: string; rule: boolean; limits: boolean; grants: { domain: string; expires: string }[]; steps: Step[] }

function files(c: Case): Record<string, string> {
  const rules = `${c.rule ? '  - name: no agencies\n    deny: ["*.agency.example"]\n' : ''}${c.limits ? LIMITS : ''}`;
  const project = `drift: ${c.drift}\n${rules ? `rules:\n${rules}` : ''}`;
  const grants = c.grants.map((grant) => `  - {domain: ${grant.domain}, expires: ${grant.expires}}\n`).join('');
  return { 'autojoin-sync.yaml': project, 'acme.autojoin.yaml': `scope: acme\nscopeType: team\ncomponentId: c1\nmetadata: {owner: eng}\ndomains:\n  - a.example\n${grants}`, 'beta.autojoin.yaml': 'scope: beta\nscopeType: team\ncomponentId: c1\ndomains:\n  - b.example\n' };
}

function forbidden(domain: string, c: Case): boolean {
  // No grant is a contractor's: a contractor domain in a written list came from the live state, with no expiry.
  const limited = c.limits && (domain.endsWith('.contractor.example') || domain === 'b.example');
  return checkDomain(domain).some((finding) => finding.severity === 'error') || (c.rule && domain.endsWith('.agency.example')) || limited;
}

async function step(r: Repo, c: Case, s: Step, state: { noted: boolean }): Promise<void> {
  const day = DAYS[s.day] ?? '2026-03-01';
  const before = await r.live('acme');
  switch (s.op) {
    case 'add':
      return r.admin('acme', [...new Set([...before.domains, s.domain])]);
    case 'remove':
      return r.admin('acme', before.domains.filter((domain) => domain !== s.domain));
    case 'off':
      // A create over a switched-off invitation starts its metadata anew (the service replaces it on a POST).
      state.noted = false;
      return r.admin('acme', []);
    case 'note':
      if (before.deactivated) return;
      state.noted = true;
      return r.admin('acme', before.domains, { ...before.metadata, 'team-note': 'ask Kim' });
    case 'legacy': {
      // The marker as an older release kept it: no `autojoin-sync.keys`, no `applied`.
      if (before.deactivated) return;
      const { 'autojoin-sync.keys': _keys, 'autojoin-sync.applied': _applied, ...older } = before.metadata ?? {};
      return r.admin('acme', before.domains, older);
    }
    case 'plan':
      expect([0, 2]).toContain((await r.run(day, 'plan', '--detailed-exitcode', '.')).code);
      return;
    case 'adopt':
      return adopt(r, c, day);
    default:
      return apply(r, c, day, s.op === 'only-expired', before);
  }
}

async function apply(r: Repo, c: Case, day: string, onlyExpired: boolean, before: Awaited<ReturnType<Repo['live']>>): Promise<void> {
  const run = await r.run(day, 'apply', '--yes', ...(onlyExpired ? ['--only-expired'] : []), '.');
  const after = await r.live('acme');
  if (run.code !== 0) {
    expect(after, run.stderr).toEqual(before); // a refusal writes nothing
    return;
  }
  const expired = c.grants.filter((grant) => grant.expires < day).map((grant) => grant.domain);
  expect(after.domains.filter((domain) => expired.includes(domain)), run.stdout).toEqual([]);
  const written = JSON.stringify(after) !== JSON.stringify(before);
  if (written && !after.deactivated) expect(after.domains.filter((domain) => forbidden(domain, c))).toEqual([]);
}

async function adopt(r: Repo, c: Case, day: string): Promise<void> {
  const cleanBefore = (await r.run(day, 'fmt', '--check', '.')).code === 0;
  const before = await r.read('acme.autojoin.yaml');
  expect((await r.run(day, 'adopt', '.')).code).toBe(0);
  const after = await r.read('acme.autojoin.yaml');
  if (after === before) return;
  expect((await r.run(day, 'validate', '.')).code, after).toBe(0);
  if (cleanBefore) expect((await r.run(day, 'fmt', '--check', '.')).code, after).toBe(0);
  for (const domain of ['x.agency.example', 'co.uk']) if (c.rule || domain === 'co.uk') expect(after).not.toContain(domain);
  if (c.limits) for (const domain of ['x.contractor.example', 'b.example']) expect(after).not.toContain(domain);
  // A grant is only ever an entry with its date: adopt never writes one back as a plain domain.
  for (const grant of c.grants) expect(after).not.toMatch(new RegExp(`^\\s*- ${grant.domain.replace('.', '\\.')}\\s*$`, 'm'));
  r.commit('adopt');
}

describe('expiry, keep, adopt, rules, metadata and admin edits, in any order', () => {
  it('keep every promise after every step', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        const r = await repo(files(c));
        try {
          expect((await r.run(DAYS[0] ?? '', 'apply', '--yes', '.')).code).toBe(0);
          const state = { noted: false };
          let day = 0;
          for (const s of c.steps) {
            day = Math.max(day, s.day); // days never go back
            await step(r, c, { ...s, day }, state);
            const live = await r.live('acme');
            if (state.noted && !live.deactivated) expect(live.metadata?.['team-note'], JSON.stringify(s)).toBe('ask Kim');
          }
        } finally {
          await r.close();
        }
      }),
      { numRuns: runs(3, 6, 6) },
    );
  });
});
