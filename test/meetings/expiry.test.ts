/**
 * Expiry is always this repository's change (issue 33): the state last applied is evaluated at
 * the date it was applied (the marker's `autojoin-sync.applied`, else its commit's date), never
 * today, so a grant applied before its `expires` and planned after it is a `change` under either
 * drift setting, counts against maxRemovals, is never adopted back, and `apply --only-expired`
 * writes just those removals. In-process: real git repository, emulator over loopback.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { repo, type Repo } from './support.js';

const POLICY = `scope: acme
scopeType: team
componentId: c1
domains:
  - acme.com
  - domain: contractor.example
    expires: 2026-03-10
    reason: SEC-42 audit
`;

let current: Repo | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

async function applied(drift: 'keep' | 'revert', extra = ''): Promise<Repo> {
  current = await repo({ 'autojoin-sync.yaml': `drift: ${drift}\n${extra}`, 'acme.autojoin.yaml': POLICY });
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
});
