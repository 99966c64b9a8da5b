/**
 * The named cases of issue 33 as a user runs them: the built CLI spawned as a process against an
 * emulator over loopback, in a real git repository, with AUTOJOIN_NOW for the date. The fast tier
 * holds the same cases in-process (expiry, keep, adopt, metadata and governance tests beside this file).
 */
import { describe, expect, it } from 'vitest';
import { reposClosedAfterEach } from './support.js';

const EXPIRING = 'scope: acme\nscopeType: team\ncomponentId: c1\ndomains:\n  - acme.com\n  - domain: contractor.example\n    expires: 2026-03-10\n';
const policy = (domains: string[], extra = ''): string => `scope: acme\nscopeType: team\ncomponentId: c1\n${extra}domains:\n${domains.map((d) => `  - ${d}\n`).join('')}`;

const openRepo = reposClosedAfterEach();

describe('issue 33, spawned', () => {
  it('an expired grant is revoked under drift: keep (a change, not drift)', async () => {
    const r = await openRepo({ 'autojoin-sync.yaml': 'drift: keep\n', 'acme.autojoin.yaml': EXPIRING }, { spawned: true });
    expect((await r.run('2026-03-01', 'apply', '--yes', '.')).code).toBe(0);
    const plan = JSON.parse((await r.run('2026-03-20', 'plan', '--format', 'json', '.')).stdout) as { changes: { removed: string[]; origin?: string }[]; drift: unknown[] };
    expect(plan.drift).toEqual([]);
    expect(plan.changes).toMatchObject([{ removed: ['contractor.example'] }]);
    expect((await r.run('2026-03-20', 'apply', '--yes', '.')).code).toBe(0);
    expect((await r.live('acme')).domains).toEqual(['acme.com']);
  });

  it('apply --only-expired revokes on the day; a saved plan an expiry overtook is stale (exit 4)', async () => {
    const r = await openRepo({ 'acme.autojoin.yaml': EXPIRING }, { spawned: true });
    expect((await r.run('2026-03-01', 'apply', '--yes', '.')).code).toBe(0);
    expect((await r.run('2026-03-09', 'plan', '--out', 'plan.json', '.')).code).toBe(0);
    expect((await r.run('2026-03-12', 'apply', '--yes', '--plan', 'plan.json')).code).toBe(4);
    const daily = await r.run('2026-03-12', 'apply', '--yes', '--only-expired', '.');
    expect(daily.code, daily.stderr).toBe(0);
    expect((await r.live('acme')).domains).toEqual(['acme.com']);
  });

  it('a conflict merged under keep that a deny rule forbids is refused, naming drift: revert', async () => {
    const project = 'drift: keep\nrules:\n  - name: no agencies\n    deny: ["*.agency.example"]\n';
    const r = await openRepo({ 'autojoin-sync.yaml': project, 'acme.autojoin.yaml': policy(['acme.com']) }, { spawned: true });
    expect((await r.run('2026-03-01', 'apply', '--yes', '.')).code).toBe(0);
    await r.admin('acme', ['acme.com', 'x.agency.example']);
    await r.write('acme.autojoin.yaml', policy(['acme.com', 'new.example']));
    r.commit();
    const refused = await r.run('2026-03-01', 'apply', '--yes', '.');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('(rule-deny)');
    expect(refused.stderr).toContain('drift: revert');
  });

  it('a conflict merged under keep keeping a live domain with no expiry is refused under requireExpiry, naming scope, domain, rule and drift: revert', async () => {
    const project = 'drift: keep\nrules:\n  - name: contractors expire\n    requireExpiry: ["*.contractor.example"]\n';
    const r = await openRepo({ 'autojoin-sync.yaml': project, 'acme.autojoin.yaml': policy(['acme.com']) }, { spawned: true });
    expect((await r.run('2026-03-01', 'apply', '--yes', '.')).code).toBe(0);
    await r.admin('acme', ['acme.com', 'x.contractor.example']);
    await r.write('acme.autojoin.yaml', policy(['acme.com', 'new.example']));
    r.commit();
    const refused = await r.run('2026-03-01', 'apply', '--yes', '.');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('team/acme: rule "contractors expire": x.contractor.example');
    expect(refused.stderr).toContain('(rule-require-expiry)');
    expect(refused.stderr).toContain('drift: revert');
    expect((await r.live('acme')).domains).toEqual(['acme.com', 'x.contractor.example']);
  });

  it('a marker without autojoin-sync.keys takes the keys of its commit: a dropped key is removed, another writer\'s kept', async () => {
    const r = await openRepo({ 'acme.autojoin.yaml': policy(['acme.com'], 'metadata: {owner: eng, cost: "10"}\n') }, { spawned: true });
    expect((await r.run('2026-03-01', 'apply', '--yes', '.')).code).toBe(0);
    const live = await r.live('acme');
    const { 'autojoin-sync.keys': _keys, 'autojoin-sync.applied': _applied, ...older } = live.metadata ?? {};
    await r.admin('acme', live.domains, { ...older, 'team-note': 'ask Kim' });
    await r.write('acme.autojoin.yaml', policy(['acme.com'], 'metadata: {owner: eng}\n'));
    r.commit();
    const applied = await r.run('2026-03-01', 'apply', '--yes', '.');
    expect(applied.code, applied.stderr).toBe(0);
    const after = (await r.live('acme')).metadata ?? {};
    expect(after).toMatchObject({ owner: 'eng', 'team-note': 'ask Kim' });
    expect(after).not.toHaveProperty('cost');
  });

  it('adopt keeps a fmt-clean file clean, and says "Nothing to adopt" when nothing changes', async () => {
    const r = await openRepo({ 'acme.autojoin.yaml': policy(['a.example', 'c.example']) }, { spawned: true });
    expect((await r.run('2026-03-01', 'apply', '--yes', '.')).code).toBe(0);
    expect((await r.run('2026-03-01', 'adopt', '.')).stderr).toContain('Nothing to adopt');
    await r.admin('acme', ['a.example', 'b.example', 'c.example']);
    expect((await r.run('2026-03-01', 'adopt', '.')).code).toBe(0);
    expect((await r.run('2026-03-01', 'fmt', '--check', '.')).code).toBe(0);
  });

  it('a rule glob that matches nothing warns; 12 subdomain warnings print 3 and a count', async () => {
    const many = Array.from({ length: 12 }, (_, i) => `s${i}.acme.com`);
    const r = await openRepo({ 'autojoin-sync.yaml': 'rules:\n  - name: orgs\n    scopes: ["organization/*"]\n    deny: ["x.example"]\n', 'acme.autojoin.yaml': policy(many) }, { spawned: true });
    const validate = await r.run('2026-03-01', 'validate', '.');
    expect(validate.code).toBe(0);
    expect(validate.stdout).toContain('warning: rule "orgs": scopes glob organization/* matches no scope');
    expect(validate.stdout).toContain('and 9 more subdomain warnings; --verbose shows all');
  });
});
