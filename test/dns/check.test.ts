/**
 * The DNS check against real servers on 127.0.0.1 (test/support/dns.ts): every answer kind,
 * the per-run cache, the bound on lookups in flight, the deadline, and where findings stand.
 * The zones run on dns2 (a dev dependency) always and on dnsmasq too where it is installed.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkDomains, checkPoliciesOverDns, createLookup, startDnsCheck, type DnsSettings, type Lookup } from '../../src/dns/index.js';
import type { Policy } from '../../src/policy/types.js';
import { loadPolicies } from '../../src/policy/index.js';
import { requires } from '../support/requires.js';
import { DNS_SERVERS, startDelayedServer, startDnsFixture, TOKEN, type DnsFixture } from '../support/dns.js';

const settings = (servers: string[], extra: Partial<DnsSettings> = {}): DnsSettings => ({
  servers,
  strict: false,
  timeoutMs: 2000,
  deadlineMs: 20_000,
  concurrency: 8,
  ...extra,
});

// Once per kind of server; a kind not installed here (dnsmasq) skips its tests, saying so (a failure in CI).
describe.each(DNS_SERVERS)('the DNS check against $kind', ({ kind, present }) => {
  let fixture: DnsFixture;
  beforeAll(async () => {
    if (present) fixture = await startDnsFixture(kind);
  });
  afterAll(async () => {
    if (present) await fixture.stop();
  });

  async function codes(domains: string[], extra: Partial<DnsSettings> = {}): Promise<Record<string, string[]>> {
    const found = await checkDomains(domains, settings([fixture.server], extra));
    return Object.fromEntries(domains.map((domain) => [domain, (found.get(domain) ?? []).map((f) => `${f.severity}:${f.code}`)]));
  }

  describe('answers', () => {
    beforeEach((context) => requires(context, { present, reason: `${kind} is not installed (Debian: apt-get install dnsmasq-base)`, tool: true }));
    it('judges each answer kind: existing, NXDOMAIN, no mail, SERVFAIL, no answer in time', async () => {
      const domains = ['good.test', 'addr.test', 'nx.test', 'nomail.test', 'broken.example', 'stuck.slow'];
      expect(await codes(domains, { timeoutMs: 400 })).toEqual({
        'good.test': [],
        'addr.test': [],
        'nx.test': ['error:dns-nxdomain'],
        'nomail.test': ['warning:dns-no-mail'],
        'broken.example': ['warning:dns-unanswered'],
        'stuck.slow': ['warning:dns-timeout'],
      });
    });

    it('takes a slow answer that comes within the lookup timeout', async () => {
      expect(await codes(['late.slow'], { timeoutMs: 3000 })).toEqual({ 'late.slow': [] });
    });

    it('--dns-strict makes a timeout and SERVFAIL errors', async () => {
      expect(await codes(['broken.example', 'stuck.slow'], { strict: true, timeoutMs: 400 })).toEqual({
        'broken.example': ['error:dns-unanswered'],
        'stuck.slow': ['error:dns-timeout'],
      });
    });

    it('verifies the TXT record on the domain itself', async () => {
      expect(await codes(['verified.test', 'unverified.test', 'good.test', 'nx.test'], { token: TOKEN })).toEqual({
        'verified.test': [],
        'unverified.test': ['error:dns-unverified'],
        'good.test': ['error:dns-unverified'],
        'nx.test': ['error:dns-nxdomain'],
      });
    });

    // The lookups' own timeout (10 s) is far beyond the deadline: every finding says the deadline
    // ended it, which only a check that keeps to its deadline can say (no clock is read here).
    it('gives the domains not looked up by the deadline a timeout finding, and keeps to the deadline', async () => {
      const domains = Array.from({ length: 20 }, (_, index) => `stuck${index}.slow`);
      const found = await checkDomains(['good.test', ...domains], settings([fixture.server], { timeoutMs: 10_000, deadlineMs: 500, concurrency: 4 }));
      expect(found.has('good.test')).toBe(false);
      for (const domain of domains) {
        expect(found.get(domain)?.map((f) => f.code), domain).toEqual(['dns-timeout']);
        expect(found.get(domain)?.[0]?.message, domain).toContain('the DNS check ran out of time first');
      }
    });

    it('stands findings at the file:line:col of every entry that lists the domain', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'autojoin-dns-place-'));
      try {
        await writeFile(join(dir, 'a.autojoin.yaml'), 'scope: a\nscopeType: team\ncomponentId: c\ndomains:\n  - good.test\n  - NX.test\n');
        // A file the plain fast path does not take (a comment inside a flow list): located through the yaml library.
        await writeFile(join(dir, 'b.autojoin.yaml'), 'scope: b\nscopeType: team\ncomponentId: c\nmetadata: {tier: 1}\ndomains: [nomail.test,\n  nx.test]\n');
        const { policies } = await loadPolicies(['.'], { cwd: dir });
        const diagnostics = await checkPoliciesOverDns(policies, settings([fixture.server]), { cwd: dir });
        expect(diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.severity} ${d.code}`).sort()).toEqual([
          'a.autojoin.yaml:6:5 error dns-nxdomain',
          'b.autojoin.yaml:5:11 warning dns-no-mail',
          'b.autojoin.yaml:6:3 error dns-nxdomain',
        ]);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  });
});

describe('lookups', () => {
  it('looks a domain that many scopes list up once, with at most `concurrency` lookups in flight', async () => {
    const slow = await startDelayedServer(() => 30);
    const dir = await mkdtemp(join(tmpdir(), 'autojoin-dns-cache-'));
    try {
      const domains = Array.from({ length: 40 }, (_, index) => `  - d${index}.acme.test`).join('\n');
      for (const scope of ['a', 'b', 'c']) await writeFile(join(dir, `${scope}.autojoin.yaml`), `scope: ${scope}\nscopeType: team\ncomponentId: c\ndomains:\n${domains}\n`);
      const { policies } = await loadPolicies(['.'], { cwd: dir });
      expect(policies).toHaveLength(3);
      const diagnostics = await checkPoliciesOverDns(policies, settings([slow.server], { concurrency: 5 }), { cwd: dir });
      expect(diagnostics).toEqual([]);
      expect(slow.queries.size).toBe(40);
      expect([...slow.queries.values()].every((count) => count === 1)).toBe(true);
      expect(slow.inFlight.max).toBe(5);
    } finally {
      await slow.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

/** A real lookup that also tells when none is in flight (every answer given and taken). */
function countingLookup(inner: Lookup): Lookup & { idle(): Promise<void> } {
  let inFlight = 0;
  const waiters: (() => void)[] = [];
  return {
    async lookup(name, type) {
      inFlight += 1;
      try {
        return await inner.lookup(name, type);
      } finally {
        inFlight -= 1;
        // The worker takes the answer in this turn; tell the waiters in the next one.
        if (inFlight === 0) setImmediate(() => waiters.splice(0).forEach((wake) => wake()));
      }
    },
    expire: () => inner.expire(),
    close: () => inner.close(),
    idle: () => (inFlight === 0 ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve))),
  };
}

describe('a check fed while files load', () => {
  it('looks up what is added between waves, whatever the workers were doing', async () => {
    const slow = await startDelayedServer((name) => (name.startsWith('quick') ? 0 : 15));
    try {
      const dnsSettings = settings([slow.server], { concurrency: 3 });
      const lookup = countingLookup(createLookup(dnsSettings));
      const check = startDnsCheck(dnsSettings, { cwd: '.', lookup });
      const policy = (n: number, names: string[]): Policy => ({
        key: `team/p${n}`, scope: `p${n}`, scopeType: 'team', componentId: 'c', domains: names, source: { file: 'x', line: 1, column: 1 }, explicitEmpty: false,
      });
      const added: Policy[] = [];
      for (let wave = 0; wave < 6; wave += 1) {
        const names = Array.from({ length: wave + 1 }, (_, i) => (wave % 2 === 0 ? `quick${wave}-${i}.test` : `w${wave}-${i}.test`));
        added.push(policy(wave, names));
        check.add(added[wave] as Policy);
        // Every worker runs dry after the quick waves (all answered, none queued); the others are fed mid-lookup.
        if (wave % 2 === 0) await lookup.idle();
      }
      expect(await check.finish(added)).toEqual([]);
      expect(slow.queries.size).toBe(21);
    } finally {
      await slow.stop();
    }
  });
});
