/**
 * Rules and warnings where they meet the other features (issue 33): a rule whose `scopes` glob
 * matches no declared scope is a warning at the rule, never an error; warnings of one kind are
 * shown three times, then counted in one line; errors are never cut; JSON carries every finding.
 * In-process: real git repository, emulator over loopback.
 */
import { describe, expect, it } from 'vitest';
import { reposClosedAfterEach, teamPolicy as policy } from './support.js';

const DAY = '2026-03-01';

const openRepo = reposClosedAfterEach();

describe('a rule glob that matches no declared scope', () => {
  it('is a warning at the rule; validate and plan go on', async () => {
    const r = await openRepo({
      'autojoin-sync.yaml': 'rules:\n  - name: orgs only\n    scopes: ["organization/*"]\n    allow: ["*.acme.com"]\n',
      'a.autojoin.yaml': policy('a', ['acme.com']),
    });
    const validate = await r.run(DAY, 'validate', '.');
    expect(validate.code).toBe(0);
    expect(validate.stdout).toContain('autojoin-sync.yaml:3:14: warning: rule "orgs only": scopes glob organization/* matches no scope');
    expect((await r.run(DAY, 'plan', '.')).code).toBe(0);
  });
});

describe('warnings of one kind', () => {
  const many = Array.from({ length: 12 }, (_, i) => `s${i}.acme.com`);

  it('show the first 3, then one line counting the rest; errors are never cut; --verbose and JSON carry all', async () => {
    const files: Record<string, string> = { 'a.autojoin.yaml': policy('a', many) };
    for (let i = 0; i < 5; i++) files[`bad${i}.autojoin.yaml`] = policy(`bad${i}`, [`gmail.com`]);
    const r = await openRepo(files);
    const validate = await r.run(DAY, 'validate', '.');
    expect(validate.code).toBe(1);
    expect(validate.stdout.match(/warning: .*subdomain/g) ?? []).toHaveLength(3);
    expect(validate.stdout).toContain('and 9 more subdomain warnings; --verbose shows all');
    expect(validate.stdout.match(/error: /g) ?? []).toHaveLength(5);
    expect((await r.run(DAY, 'validate', '--verbose', '.')).stdout.match(/warning: .*subdomain/g) ?? []).toHaveLength(12);
    const json = JSON.parse((await r.run(DAY, 'validate', '--format', 'json', '.')).stdout) as { diagnostics: { code: string }[] };
    expect(json.diagnostics.filter((d) => d.code === 'subdomain')).toHaveLength(12);
  });

  it('the plan prints 3 of them before the plan, then the count', async () => {
    const r = await openRepo({ 'a.autojoin.yaml': policy('a', many) });
    const plan = await r.run(DAY, 'plan', '.');
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stderr.match(/warning: .*subdomain/g) ?? []).toHaveLength(3);
    expect(plan.stderr).toContain('and 9 more subdomain warnings; --verbose shows all');
  });
});
