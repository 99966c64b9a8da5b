/**
 * `drift: keep` meets the file checks and the switch-off (issue 33): whatever a run writes passes
 * the same checks as a policy file, whichever path built it (here a conflict merged under keep);
 * a refusal names the scope, the check and the way out; an admin's switch-off stays off.
 * In-process: real git repository, emulator over loopback.
 */
import { describe, expect, it } from 'vitest';
import { reposClosedAfterEach, type Repo } from './support.js';

const DAY = '2026-03-01';
const PROJECT = 'drift: keep\nrules:\n  - name: no agencies\n    deny: ["*.agency.example"]\n';
const policy = (domains: string[], extra = ''): string => `scope: acme\nscopeType: team\ncomponentId: c1\n${extra}domains:\n${domains.map((d) => `  - ${d}\n`).join('')}`;

const openRepo = reposClosedAfterEach();

async function conflictWith(outsideDomain: string): Promise<Repo> {
  const r = await openRepo({ 'autojoin-sync.yaml': PROJECT, 'acme.autojoin.yaml': policy(['acme.com']) });
  expect((await r.run(DAY, 'apply', '--yes', '.')).code).toBe(0);
  await r.admin('acme', ['acme.com', outsideDomain]);
  await r.write('acme.autojoin.yaml', policy(['acme.com', 'new.example']));
  r.commit();
  return r;
}

describe('what drift: keep writes passes the file checks', () => {
  it.each([
    ['a domain an error-level rule denies', 'x.agency.example', 'rule-deny'],
    ['a public suffix', 'co.uk', 'public-suffix'],
  ])('a conflict merging %s is refused, naming scope, check and drift: revert; revert then writes the files', async (_name, outside, check) => {
    const r = await conflictWith(outside);
    const refused = await r.run(DAY, 'apply', '--yes', '.');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('team/acme: ');
    expect(refused.stderr).toContain(`(${check})`);
    expect(refused.stderr).toContain('Set `drift: revert` on that scope');
    expect((await r.live('acme')).domains).toEqual(['acme.com', outside].sort());
    await r.write('acme.autojoin.yaml', policy(['acme.com', 'new.example'], 'drift: revert\n'));
    r.commit();
    const reverted = await r.run(DAY, 'apply', '--yes', '.');
    expect(reverted.code, reverted.stderr).toBe(0);
    expect((await r.live('acme')).domains).toEqual(['acme.com', 'new.example']);
  });
});

describe('drift: keep keeps an admin\'s switch-off', () => {
  it('a deactivated invitation stays off under keep (reported as drift, never a plain create); revert turns it back on as drift', async () => {
    const r = await openRepo({ 'autojoin-sync.yaml': 'drift: keep\n', 'acme.autojoin.yaml': policy(['acme.com']) });
    expect((await r.run(DAY, 'apply', '--yes', '.')).code).toBe(0);
    await r.admin('acme', []);
    const plan = JSON.parse((await r.run(DAY, 'plan', '--format', 'json', '.')).stdout) as { changes: unknown[]; drift: { key: string; origin: string; outside: { removed: string[] } }[] };
    expect(plan.changes).toEqual([]);
    expect(plan.drift).toMatchObject([{ key: 'team/acme', origin: 'drift', outside: { removed: ['acme.com'] } }]);
    const apply = await r.run(DAY, 'apply', '--yes', '.');
    expect(apply.code, apply.stderr).toBe(0);
    expect((await r.live('acme')).deactivated).toBe(true);

    await r.write('autojoin-sync.yaml', 'drift: revert\n');
    r.commit();
    const revert = JSON.parse((await r.run(DAY, 'plan', '--format', 'json', '.')).stdout) as { changes: { kind: string; origin?: string }[] };
    expect(revert.changes).toMatchObject([{ kind: 'create', origin: 'drift' }]);
  });
});
