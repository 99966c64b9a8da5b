/** Where the DNS check's settings come from: flags, the project file, the environment, the system. */
import { describe, expect, it } from 'vitest';
import { dnsSettings } from '../../src/run/dns.js';
import { resolveServerAddress } from '../../src/dns/index.js';
import { parseProjectSource } from '../../src/policy/index.js';

const project = (text: string): string[] =>
  parseProjectSource({ file: 'autojoin-sync.yaml', text }, '/repo/autojoin-sync.yaml').diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`);

describe('dns in autojoin-sync.yaml', () => {
  it('accepts the documented keys and refuses others, and verify without a token', () => {
    expect(project('dns:\n  check: true\n  servers: ["10.0.0.53", "[::1]:5353"]\n  verify: txt\n  token: abc\n  strict: true\n  timeoutSeconds: 2\n  deadlineSeconds: 60\n')).toEqual([]);
    expect(project('dns:\n  chek: true\n')[0]).toMatch(/^2:3 unknown key "chek" in dns \(did you mean "check"\?\)/);
    expect(project('dns:\n  verify: txt\n')).toEqual(['2:3 dns: must have property token when property verify is present']);
    expect(project('dns:\n  timeoutSeconds: 0\n')).toEqual(['2:19 dns.timeoutSeconds: must be > 0']);
  });
});

describe('dnsSettings', () => {
  it('is off unless --dns, --dns-strict, --dns-server or dns.check turns it on', async () => {
    expect(await dnsSettings({}, {}, {})).toBeNull();
    expect(await dnsSettings({}, { dns: { servers: ['10.0.0.1'] } }, { AUTOJOIN_DNS_SERVERS: '10.0.0.2' })).toBeNull();
    expect(await dnsSettings({ dns: true }, {}, {})).toMatchObject({ strict: false });
    expect(await dnsSettings({ strict: true }, {}, {})).toMatchObject({ strict: true });
    expect(await dnsSettings({ servers: ['10.0.0.1'] }, {}, {})).toMatchObject({ servers: ['10.0.0.1'] });
    expect(await dnsSettings({}, { dns: { check: true, strict: true } }, {})).toMatchObject({ strict: true });
  });

  it('takes resolvers from --dns-server, else dns.servers, else AUTOJOIN_DNS_SERVERS, else none (the system\'s)', async () => {
    const env = { AUTOJOIN_DNS_SERVERS: ' 10.0.0.3 , 10.0.0.4:5353 ' };
    const project = { dns: { check: true, servers: ['10.0.0.2'] } };
    expect((await dnsSettings({ servers: ['10.0.0.1'] }, project, env))?.servers).toEqual(['10.0.0.1']);
    expect((await dnsSettings({}, project, env))?.servers).toEqual(['10.0.0.2']);
    expect((await dnsSettings({ dns: true }, {}, env))?.servers).toEqual(['10.0.0.3', '10.0.0.4:5353']);
    expect((await dnsSettings({ dns: true }, {}, {}))?.servers).toEqual([]);
  });

  it('verifies only with verify: txt and a token; timeouts come from the project file in seconds', async () => {
    const settings = await dnsSettings({ dns: true }, { dns: { verify: 'txt', token: 'T', timeoutSeconds: 0.5, deadlineSeconds: 30 } }, {});
    expect(settings).toMatchObject({ token: 'T', timeoutMs: 500, deadlineMs: 30_000 });
    expect(await dnsSettings({ dns: true }, {}, {})).toMatchObject({ timeoutMs: 5000, deadlineMs: 120_000 });
    expect((await dnsSettings({ dns: true }, {}, {}))?.token).toBeUndefined();
  });

  it('names the source of a resolver address it cannot use', async () => {
    await expect(dnsSettings({}, { dns: { check: true, servers: ['a b'] } }, {})).rejects.toThrow('dns.servers in autojoin-sync.yaml: "a b" is not a resolver address');
    await expect(dnsSettings({ servers: ['x:y'], serversFrom: 'input dns-servers' }, {}, {})).rejects.toThrow('input dns-servers: "x:y" is not a resolver address');
    await expect(dnsSettings({ dns: true }, {}, { AUTOJOIN_DNS_SERVERS: '1.2.3.4:0' })).rejects.toThrow('AUTOJOIN_DNS_SERVERS: "1.2.3.4:0" is not a resolver address');
  });
});

describe('resolveServerAddress', () => {
  it('accepts HOST, HOST:PORT, IPv6 and [IPv6]:PORT, as setServers takes them', async () => {
    expect(await resolveServerAddress('192.0.2.53', 'x')).toBe('192.0.2.53');
    expect(await resolveServerAddress('192.0.2.53:05353', 'x')).toBe('192.0.2.53:5353');
    expect(await resolveServerAddress('2001:db8::53', 'x')).toBe('2001:db8::53');
    expect(await resolveServerAddress('[2001:db8::53]:53', 'x')).toBe('[2001:db8::53]:53');
    expect(await resolveServerAddress('localhost:5353', 'x')).toMatch(/^(127\.0\.0\.1:5353|\[::1\]:5353)$/);
  });

  it('refuses what is no address', async () => {
    for (const bad of ['', 'http://10.0.0.1', '10.0.0.1:', '[10.0.0.1]:53', '10.0.0.1:70000', 'a b']) {
      await expect(resolveServerAddress(bad, '--dns-server'), bad).rejects.toThrow('is not a resolver address');
    }
  });
});
