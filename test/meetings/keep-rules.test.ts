/**
 * The entry and cross-scope rules meet `drift: keep` (issue 33, last gaps): a domain a conflict
 * merges from the live state is written with no expiry, so `requireExpiry` refuses it; and
 * `maxScopesPerDomain` counts it over every scope of the run as it will stand (the kept scopes'
 * live lists included), not in the written scope alone. Each refusal names the scope, the domain,
 * the rule and `drift: revert`. In-process through the command layer: real git repository,
 * emulator over loopback.
 */
import { describe, expect, it } from 'vitest';
import { reposClosedAfterEach, teamPolicy as policy, type Repo } from './support.js';

const DAY = '2026-03-01';

const openRepo = reposClosedAfterEach();

/**
 * Applied under `drift: keep` and `maxScopesPerDomain: 1`; then an admin adds shared.example to
 * team/acme and team/beta, and a commit changes acme's file, so its write would keep the domain.
 */
async function sharedDomainKept(): Promise<Repo> {
  const project = 'drift: keep\nrules:\n  - name: one team per domain\n    maxScopesPerDomain: 1\n';
  const r = await openRepo({ 'autojoin-sync.yaml': project, 'acme.autojoin.yaml': policy('acme', ['acme.com']), 'beta.autojoin.yaml': policy('beta', ['beta.com']) });
  expect((await r.run(DAY, 'apply', '--yes', '.')).code).toBe(0);
  await r.admin('acme', ['acme.com', 'shared.example']);
  await r.admin('beta', ['beta.com', 'shared.example']);
  await r.write('acme.autojoin.yaml', policy('acme', ['acme.com', 'new.example']));
  r.commit();
  return r;
}

describe('what drift: keep merges from the live state passes the entry rules', () => {
  it('a kept live domain with no expiry under requireExpiry is refused, naming scope, domain, rule and drift: revert', async () => {
    const project = 'drift: keep\nrules:\n  - name: contractors expire\n    requireExpiry: ["*.contractor.example"]\n    maxExpiryDays: 90\n';
    const r = await openRepo({ 'autojoin-sync.yaml': project, 'acme.autojoin.yaml': policy('acme', ['acme.com']) });
    expect((await r.run(DAY, 'apply', '--yes', '.')).code).toBe(0);
    await r.admin('acme', ['acme.com', 'x.contractor.example']);
    await r.write('acme.autojoin.yaml', policy('acme', ['acme.com', 'new.example']));
    r.commit();
    const refused = await r.run(DAY, 'apply', '--yes', '.');
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stderr).toContain('team/acme: rule "contractors expire": x.contractor.example in team/acme must carry an expiry date');
    expect(refused.stderr).toContain('(rule-require-expiry)');
    expect(refused.stderr).toContain('Set `drift: revert` on that scope');
    expect((await r.live('acme')).domains).toEqual(['acme.com', 'x.contractor.example']);
  });

  it('maxScopesPerDomain counts a kept live domain over every scope of the run, not the written one alone', async () => {
    const r = await sharedDomainKept();
    const refused = await r.run(DAY, 'apply', '--yes', '.');
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stderr).toContain('team/acme: rule "one team per domain": shared.example would appear in 2 scopes, more than 1 (team/acme, team/beta)');
    expect(refused.stderr).toContain('(rule-max-scopes)');
    expect(refused.stderr).toContain('Set `drift: revert` on that scope');
    expect((await r.live('acme')).domains).toEqual(['acme.com', 'shared.example']);
  });

  it('a saved plan is counted against the scopes its check reads again (apply --plan)', async () => {
    const r = await sharedDomainKept();
    expect((await r.run(DAY, 'plan', '--out', '.git/plan.json', '.')).code).toBe(0);
    const refused = await r.run(DAY, 'apply', '--yes', '--plan', '.git/plan.json');
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stderr).toContain('shared.example would appear in 2 scopes, more than 1 (team/acme, team/beta)');
    expect((await r.live('acme')).domains).toEqual(['acme.com', 'shared.example']);
  });

  it('a kept live domain the rules do not speak of is still written (no refusal without a broken rule)', async () => {
    const project = 'drift: keep\nrules:\n  - name: contractors expire\n    requireExpiry: ["*.contractor.example"]\n  - name: one team per domain\n    maxScopesPerDomain: 1\n';
    const r = await openRepo({ 'autojoin-sync.yaml': project, 'acme.autojoin.yaml': policy('acme', ['acme.com']) });
    expect((await r.run(DAY, 'apply', '--yes', '.')).code).toBe(0);
    await r.admin('acme', ['acme.com', 'z.example']);
    await r.write('acme.autojoin.yaml', policy('acme', ['acme.com', 'new.example']));
    r.commit();
    const applied = await r.run(DAY, 'apply', '--yes', '.');
    expect(applied.code, applied.stderr).toBe(0);
    expect((await r.live('acme')).domains).toEqual(['acme.com', 'new.example', 'z.example']);
  });
});
