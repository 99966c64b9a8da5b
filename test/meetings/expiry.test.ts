/**
 * Expiry is always this repository's change (issue 33): the state last applied is evaluated at
 * the date it was applied (the marker's `autojoin-sync.applied`, else its commit's date), never
 * today, so a grant applied before its `expires` and planned after it is a `change` under either
 * drift setting, counts against maxRemovals, is never adopted back, and `apply --only-expired`
 * writes just those removals. In-process: real git repository, emulator over loopback.
 */
import { describe, expect, it } from 'vitest';
import { KEY, reposClosedAfterEach, type Repo } from './support.js';
import { startEmulator } from '../../src/emulator/index.js';
import { runInProcess } from '../support/in-process.js';
import { defined } from '../support/defined.js';

const POLICY = `scope: acme
scopeType: team
componentId: c1
domains:
  - acme.com
  - domain: contractor.example
    expires: 2026-03-10
    reason: SEC-42 audit
`;

const openRepo = reposClosedAfterEach();

async function applied(drift: 'keep' | 'revert', extra = ''): Promise<Repo> {
  const current = await openRepo({ 'autojoin-sync.yaml': `drift: ${drift}\n${extra}`, 'acme.autojoin.yaml': POLICY });
  const first = await current.run('2026-03-01', 'apply', '--yes', '.');
  expect(first.code, first.stderr).toBe(0);
  return current;
}

describe('an expired grant is this repository\'s change', () => {
  for (const drift of ['keep', 'revert'] as const) {
    it(`drift: ${drift}: planned after its date it is a change (not drift) and apply removes it`, async () => {
      const r = await applied(drift);
      const plan = await r.run('2026-03-20', 'plan', '--format', 'json', '.');
      const document = JSON.parse(plan.stdout) as { changes: { key: string; removed: string[]; origin?: string }[]; drift: unknown[] };
      expect(document.drift).toEqual([]);
      expect(document.changes).toMatchObject([{ key: 'team/acme', removed: ['contractor.example'] }]);
      expect(document.changes[0]?.origin).toBeUndefined();
      const apply = await r.run('2026-03-20', 'apply', '--yes', '.');
      expect(apply.code, apply.stderr).toBe(0);
      expect((await r.live('acme')).domains).toEqual(['acme.com']);
    });
  }

  it('counts against maxRemovals under drift: keep', async () => {
    const r = await applied('keep', 'safety:\n  maxRemovals: 0\n');
    const apply = await r.run('2026-03-20', 'apply', '--yes', '.');
    expect(apply.code).toBe(3);
    expect((await r.live('acme')).domains).toEqual(['acme.com', 'contractor.example']);
  });

  it('adopt never writes an expired entry back', async () => {
    const r = await applied('keep');
    const adopt = await r.run('2026-03-20', 'adopt', '.');
    expect(adopt.code, adopt.stderr).toBe(0);
    expect(adopt.stderr).toContain('Nothing to adopt');
    expect(await r.read('acme.autojoin.yaml')).toBe(POLICY);
  });

  it('a marker without `applied` (an older release) is evaluated at its commit\'s date', async () => {
    const r = await applied('keep');
    const live = await r.live('acme');
    const metadata = { ...live.metadata };
    delete metadata['autojoin-sync.applied'];
    delete metadata['autojoin-sync.keys'];
    await r.admin('acme', live.domains, metadata);
    const plan = await r.run('2026-03-20', 'plan', '--format', 'json', '.');
    const document = JSON.parse(plan.stdout) as { changes: { removed: string[]; origin?: string }[]; drift: unknown[] };
    expect(document.drift).toEqual([]);
    expect(document.changes).toMatchObject([{ removed: ['contractor.example'] }]);
    expect(document.changes[0]?.origin).toBeUndefined();
  });

  it('a marker without `applied` whose files also changed since is evaluated at its commit\'s date (read from git)', async () => {
    process.env.GIT_COMMITTER_DATE = '2026-03-01T12:00:00Z';
    try {
      const r = await applied('keep');
      const live = await r.live('acme');
      const metadata = { ...live.metadata };
      delete metadata['autojoin-sync.applied'];
      await r.admin('acme', live.domains, metadata);
      await r.write('acme.autojoin.yaml', POLICY.replace('  - acme.com\n', '  - acme.com\n  - new.example\n'));
      r.commit();
      const plan = await r.run('2026-03-20', 'plan', '--format', 'json', '.');
      const document = JSON.parse(plan.stdout) as { changes: { added: string[]; removed: string[]; origin?: string }[]; drift: unknown[] };
      expect(document.drift).toEqual([]);
      expect(document.changes).toMatchObject([{ added: ['new.example'], removed: ['contractor.example'] }]);
      expect(document.changes[0]?.origin).toBeUndefined();
    } finally {
      delete process.env.GIT_COMMITTER_DATE;
    }
  });
});

describe('dates are enforced on the day', () => {
  it('apply --only-expired writes the removals by expiry and nothing else; the next plan still shows the rest', async () => {
    const r = await applied('revert');
    await r.write('acme.autojoin.yaml', POLICY.replace('  - acme.com\n', '  - acme.com\n  - new.example\n'));
    r.commit();
    const daily = await r.run('2026-03-20', 'apply', '--yes', '--only-expired', '.');
    expect(daily.code, daily.stderr).toBe(0);
    expect((await r.live('acme')).domains).toEqual(['acme.com']);
    const plan = await r.run('2026-03-20', 'plan', '--format', 'json', '.');
    const document = JSON.parse(plan.stdout) as { changes: { added: string[]; removed: string[]; origin?: string }[]; drift: unknown[] };
    expect(document.drift).toEqual([]);
    expect(document.changes).toMatchObject([{ added: ['new.example'], removed: [] }]);
    expect(document.changes[0]?.origin).toBeUndefined();
    const none = await r.run('2026-03-20', 'apply', '--yes', '--only-expired', '.');
    expect(none.code).toBe(0);
    expect(none.stdout).toContain('No changes');
  });

  for (const drift of ['keep', 'revert'] as const) {
    it(`drift: ${drift}: a live domain an admin added that a rule denies does not hold back apply --only-expired; the full run reports it (keep) or reverts it (revert)`, async () => {
      const r = await applied(drift, 'rules:\n  - name: no agencies\n    deny: ["*.agency.example"]\n');
      await r.admin('acme', ['acme.com', 'contractor.example', 'x.agency.example']);
      const daily = await r.run('2026-03-20', 'apply', '--yes', '--only-expired', '.');
      expect(daily.code, daily.stderr).toBe(0);
      expect((await r.live('acme')).domains).toEqual(['acme.com', 'x.agency.example']);
      const full = await r.run('2026-03-20', 'apply', '--yes', '.');
      if (drift === 'keep') {
        // Nothing to write: the admin's domain is reported as drift kept live (a write would refuse it).
        expect(full.code, full.stderr).toBe(0);
        expect(full.stdout).toContain('outside: +x.agency.example');
        expect((await r.live('acme')).domains).toEqual(['acme.com', 'x.agency.example']);
      } else {
        expect(full.code, full.stderr).toBe(0);
        expect((await r.live('acme')).domains).toEqual(['acme.com']);
      }
    });
  }

  it('apply --only-expired posts the componentId as live, else as last applied: one merged but not applied waits for its reviewed apply', async () => {
    const r = await applied('revert');
    // The pull request that moves the scope to another widget is merged; its apply waits for approval.
    await r.write('acme.autojoin.yaml', POLICY.replace('componentId: c1', 'componentId: c2-unreviewed'));
    r.commit();
    // The same service state, answering without a componentId (an empty widgetId): only the state last applied names it.
    const state = r.emulator.data();
    const scope = defined(state.scopes['team/acme']);
    scope.componentId = '';
    const unshown = await startEmulator({ port: 0, data: state, apiKey: KEY });
    try {
      const env = { AUTOJOIN_BASE_URL: unshown.url, AUTOJOIN_API_KEY: KEY, AUTOJOIN_NOW: '2026-03-20' };
      const daily = await runInProcess(['apply', '--yes', '--only-expired', '.'], { cwd: r.dir, env });
      expect(daily.code, daily.stderr).toBe(0);
      const written = defined(unshown.data().scopes['team/acme']);
      expect(written.autojoin?.domains.map((d) => d.domain)).toEqual(['acme.com']);
      expect(written.componentId).toBe('c1');
    } finally {
      await unshown.close();
    }
  });

  it('a saved plan in which an entry expired between its date and today is stale (exit 4)', async () => {
    const r = await applied('revert');
    await r.write('acme.autojoin.yaml', POLICY.replace('  - acme.com\n', '  - acme.com\n  - new.example\n'));
    r.commit();
    const saved = await r.run('2026-03-09', 'plan', '--out', 'plan.json', '.');
    expect(saved.code, saved.stderr).toBe(0);
    const stale = await r.run('2026-03-12', 'apply', '--yes', '--plan', 'plan.json');
    expect(stale.code).toBe(4);
    expect(stale.stderr).toContain('contractor.example in team/acme expired on 2026-03-10, after the plan was made (2026-03-09; today is 2026-03-12)');
    expect((await r.live('acme')).domains).toEqual(['acme.com', 'contractor.example']);
    const same = await r.run('2026-03-10', 'apply', '--yes', '--plan', 'plan.json');
    expect(same.code, same.stderr).toBe(0);
  });
});
