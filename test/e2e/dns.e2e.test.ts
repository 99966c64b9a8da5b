/**
 * `validate --dns` and `plan --dns` as a user runs them: the built CLI, spawned, asking a real
 * DNS server on 127.0.0.1 (dns2, test/support/dns.ts), the plan against the emulator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { startDnsFixture, TOKEN, type DnsFixture } from '../support/dns.js';
import { cli, policy, startTestEmulator, tempProject, useEmulatorProject, type TempProject } from './support.js';

let fixture: DnsFixture;
let emulator: Emulator | undefined;
let project: TempProject | undefined;

beforeAll(async () => {
  fixture = await startDnsFixture();
});
afterAll(async () => {
  await fixture.stop();
});
useEmulatorProject(() => ({ emulator, project }));

// Lookups that get no answer give up after 1 s (the first ends that domain's lookups).
const QUICK = 'dns:\n  timeoutSeconds: 1\n';

describe('validate --dns', () => {
  it('reports NXDOMAIN as an error and no mail as a warning, at the entry', async () => {
    project = await tempProject({
      'autojoin-sync.yaml': QUICK,
      'eng.autojoin.yaml': policy('eng', ['good.test', 'nx.test', 'nomail.test']),
      'ops.autojoin.yaml': policy('ops', ['addr.test', 'nx.test']),
    });
    const result = await cli(['validate', '--dns', '--dns-server', fixture.server], { cwd: project.dir });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toBe(
      'eng.autojoin.yaml:6:5: error: nx.test does not exist in DNS (NXDOMAIN): whoever registers it can join\n' +
        'eng.autojoin.yaml:7:5: warning: nomail.test has no MX and no A/AAAA record: it receives no mail\n' +
        'ops.autojoin.yaml:6:5: error: nx.test does not exist in DNS (NXDOMAIN): whoever registers it can join\n',
    );
  });

  it('is offline without --dns, and takes its resolvers from AUTOJOIN_DNS_SERVERS', async () => {
    project = await tempProject({ 'autojoin-sync.yaml': QUICK, 'eng.autojoin.yaml': policy('eng', ['nx.test']) });
    const offline = await cli(['validate'], { cwd: project.dir, env: { AUTOJOIN_DNS_SERVERS: fixture.server } });
    expect(offline.code).toBe(0);
    const online = await cli(['validate', '--dns'], { cwd: project.dir, env: { AUTOJOIN_DNS_SERVERS: fixture.server } });
    expect(online.code).toBe(1);
    expect(online.stdout).toContain('eng.autojoin.yaml:5:5: error: nx.test does not exist in DNS (NXDOMAIN)');
  });

  it('timeouts and SERVFAIL are warnings, errors with --dns-strict', async () => {
    project = await tempProject({ 'autojoin-sync.yaml': QUICK, 'eng.autojoin.yaml': policy('eng', ['broken.example', 'stuck.slow']) });
    const lenient = await cli(['validate', '--dns', '--dns-server', fixture.server], { cwd: project.dir });
    expect(lenient.code, lenient.stdout + lenient.stderr).toBe(0);
    expect(lenient.stdout).toMatch(/^eng\.autojoin\.yaml:5:5: warning: no answer about broken\.example \(MX: SERVFAIL\)/m);
    expect(lenient.stdout).toMatch(/^eng\.autojoin\.yaml:6:5: warning: no answer about stuck\.slow \(MX: timed out/m);
    const strict = await cli(['validate', '--dns-strict', '--dns-server', fixture.server], { cwd: project.dir });
    expect(strict.code).toBe(1);
    expect(strict.stdout.match(/: error: no answer about/g)).toHaveLength(2);
  });

  it('dns.check and dns.verify: txt in the project file: a domain without its TXT record is an error', async () => {
    project = await tempProject({
      'autojoin-sync.yaml': `dns:\n  check: true\n  servers: ["${fixture.server}"]\n  verify: txt\n  token: ${TOKEN}\n`,
      'eng.autojoin.yaml': policy('eng', ['verified.test', 'unverified.test']),
    });
    const result = await cli(['validate', '--format', 'json'], { cwd: project.dir });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as { diagnostics: { line: number; code: string; message: string }[] };
    expect(report.diagnostics).toEqual([
      expect.objectContaining({ line: 6, code: 'dns-unverified', message: `unverified.test does not publish the TXT record "autojoin-sync-verification=${TOKEN}": no proof that the organization controls it` }),
    ]);
  });

  it('holds 32 lookups in flight without a word on stderr', async () => {
    const domains = Array.from({ length: 80 }, (_, index) => `late${index}.test`);
    project = await tempProject({ 'autojoin-sync.yaml': QUICK, 'eng.autojoin.yaml': policy('eng', domains) });
    const result = await cli(['validate', '--quiet', '--dns', '--dns-server', fixture.server], { cwd: project.dir });
    expect(result.code).toBe(1);
    expect(result.stdout.match(/error: late\d+\.test does not exist in DNS/g)).toHaveLength(80);
    expect(result.stderr).toBe('');
  });

  it('refuses a resolver address it cannot use, naming where it came from', async () => {
    project = await tempProject({ 'eng.autojoin.yaml': policy('eng', ['good.test']) });
    const result = await cli(['validate', '--dns-server', '10.0.0.1:99999'], { cwd: project.dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--dns-server: "10.0.0.1:99999" is not a resolver address');
  });
});

describe('plan --dns', () => {
  it('an error stops the plan before the live read', async () => {
    emulator = await startTestEmulator();
    project = await tempProject({ 'autojoin-sync.yaml': QUICK, 'eng.autojoin.yaml': policy('eng', ['good.test', 'nx.test']) });
    const result = await cli(['plan', '--dns', '--dns-server', fixture.server], { cwd: project.dir, emulator });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('eng.autojoin.yaml:6:5: error: nx.test does not exist in DNS (NXDOMAIN): whoever registers it can join');
    expect(result.stderr).toContain('1 error in the policy files; nothing was planned');
    expect(result.stdout).toBe('');
    expect(emulator.requests).toHaveLength(0);
  });

  it('warnings are printed and the plan goes on; --dns-strict turns a timeout into an error', async () => {
    emulator = await startTestEmulator();
    project = await tempProject({ 'autojoin-sync.yaml': QUICK, 'eng.autojoin.yaml': policy('eng', ['good.test', 'nomail.test', 'stuck.slow']) });
    const lenient = await cli(['plan', '--dns', '--dns-server', fixture.server], { cwd: project.dir, emulator });
    expect(lenient.code, lenient.stderr).toBe(0);
    expect(lenient.stderr).toContain('eng.autojoin.yaml:6:5: warning: nomail.test has no MX and no A/AAAA record: it receives no mail');
    expect(lenient.stderr).toMatch(/eng\.autojoin\.yaml:7:5: warning: no answer about stuck\.slow/);
    expect(lenient.stdout).toContain('team/eng');
    const strict = await cli(['plan', '--dns-strict', '--dns-server', fixture.server], { cwd: project.dir, emulator });
    expect(strict.code).toBe(1);
    expect(strict.stderr).toMatch(/eng\.autojoin\.yaml:7:5: error: no answer about stuck\.slow/);
    expect(strict.stdout).toBe('');
  });
});
