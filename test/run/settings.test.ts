/** The one resolver of a run's settings: flag or input > environment > project file > default (src/run/settings.ts). */
import { describe, expect, it } from 'vitest';
import { resolveSettings, settingsIn } from '../../src/run/settings.js';
import { tempDirOfTest } from '../support/temp.js';
import { DEFAULT_READ_MODE } from '../../src/service/read-mode.js';
import { DEFAULT_CONCURRENCY, DEFAULT_REQUEST_TIMEOUT_SECONDS } from '../../src/service/defaults.js';
import { parseInputs } from '../../src/action/inputs.js';
import { DEFAULT_OWNER } from '../../src/plan/ownership.js';

describe('read mode', () => {
  it.each([
    [{ read: 'by-scope', listing: 'autojoin' }, { AUTOJOIN_READ: 'by-group' }, {}, 'by-scope'],
    [{ listing: 'autojoin' }, { AUTOJOIN_READ: 'by-group' }, {}, 'autojoin'],
    [{}, { AUTOJOIN_READ: ' by-scope ', AUTOJOIN_LISTING: 'autojoin' }, { read: 'by-group' }, 'by-scope'],
    [{}, { AUTOJOIN_LISTING: 'autojoin' }, { read: 'by-group' }, 'autojoin'],
    [{}, { AUTOJOIN_READ: '' }, { read: 'by-scope', listing: 'autojoin' }, 'by-scope'],
    [{}, {}, { listing: 'autojoin' }, 'autojoin'],
    [{}, {}, {}, DEFAULT_READ_MODE],
  ] as const)('flags %j, environment %j, project %j → %s', (flags, env, project, expected) => {
    expect(settingsIn('/repo', { flags, env, project }).read).toBe(expected);
  });

  it('refuses an unknown AUTOJOIN_READ or AUTOJOIN_LISTING, naming it and the modes', () => {
    expect(() => settingsIn('/repo', { env: { AUTOJOIN_READ: 'by-team' } })).toThrow('AUTOJOIN_READ must be one of by-group, by-scope, autojoin, got "by-team"');
    expect(() => settingsIn('/repo', { env: { AUTOJOIN_LISTING: 'x' } })).toThrow('AUTOJOIN_LISTING must be one of');
  });

  it("the action's read and listing inputs take the same modes", () => {
    const inputs = (name: string, value: string) => parseInputs((asked) => (asked === name ? value : ''));
    expect(inputs('read', 'autojoin').read).toBe('autojoin');
    expect(inputs('listing', 'by-scope').listing).toBe('by-scope');
    expect(inputs('read', '').read).toBeUndefined();
    expect(() => inputs('read', 'sideways')).toThrow('input read: "sideways" is not one of by-group, by-scope, autojoin');
  });
});

describe('defaults, each written once', () => {
  it('concurrency, request deadline, limits and prune come from flags, then the environment or project file, then the default', () => {
    const none = settingsIn('/repo');
    expect(none).toMatchObject({ concurrency: DEFAULT_CONCURRENCY, requestTimeoutMs: DEFAULT_REQUEST_TIMEOUT_SECONDS * 1000, emulator: false, limits: { allowEmpty: false } });
    expect(none.prune).toBeUndefined();
    expect(none.owner).toBe(DEFAULT_OWNER);
    expect(settingsIn('/repo', { project: { owner: 'platform' } }).owner).toBe('platform');
    const project = { safety: { maxRemovals: 5, maxRemovalPercent: 20 }, prune: { history: true } };
    expect(settingsIn('/repo', { project, env: { AUTOJOIN_REQUEST_TIMEOUT: '7' } })).toMatchObject({
      requestTimeoutMs: 7000,
      limits: { maxRemovals: 5, maxRemovalPercent: 20, allowEmpty: false },
      prune: true,
    });
    const flags = { concurrency: 3, requestTimeout: 2, maxRemovals: 1, allowEmpty: true, prune: false };
    expect(settingsIn('/repo', { project, flags, env: { AUTOJOIN_REQUEST_TIMEOUT: '7' } })).toMatchObject({
      concurrency: 3,
      requestTimeoutMs: 2000,
      limits: { maxRemovals: 1, maxRemovalPercent: 20, allowEmpty: true },
      prune: false,
    });
    expect(() => settingsIn('/repo', { env: { AUTOJOIN_REQUEST_TIMEOUT: '0x10' } })).toThrow('AUTOJOIN_REQUEST_TIMEOUT must be a whole number');
  });
});

describe('service and credentials', () => {
  it('base URL: input > AUTOJOIN_BASE_URL > VORTEX_API_BASE_URL > project file; key: input > AUTOJOIN_API_KEY > VORTEX_API_KEY', () => {
    const project = { baseUrl: 'https://project.example.com' };
    const env = { AUTOJOIN_BASE_URL: 'https://autojoin.example.com', VORTEX_API_BASE_URL: 'https://vortex.example.com', AUTOJOIN_API_KEY: 'a', VORTEX_API_KEY: 'v' };
    expect(settingsIn('/r', { project, env, flags: { baseUrl: 'https://input.example.com', apiKey: 'i' } })).toMatchObject({ baseUrl: 'https://input.example.com', baseUrlFrom: 'input base-url', apiKey: 'i' });
    expect(settingsIn('/r', { project, env })).toMatchObject({ baseUrl: 'https://autojoin.example.com', apiKey: 'a' });
    expect(settingsIn('/r', { project, env: { ...env, AUTOJOIN_BASE_URL: ' ', AUTOJOIN_API_KEY: '' } })).toMatchObject({ baseUrl: 'https://vortex.example.com', baseUrlFrom: 'VORTEX_API_BASE_URL', apiKey: 'v' });
    expect(settingsIn('/r', { project, env: { AUTOJOIN_ACCESS_TOKEN: 't' } })).toMatchObject({ baseUrl: 'https://project.example.com', baseUrlFrom: 'autojoin-sync.yaml', accessToken: 't' });
    expect(settingsIn('/r').baseUrl).toBeUndefined();
  });
});

describe('the DNS check', () => {
  it('is off unless a flag or input asks or dns.check says so; resolvers: flag > dns.servers > AUTOJOIN_DNS_SERVERS', () => {
    const env = { AUTOJOIN_DNS_SERVERS: '10.0.0.9, 10.0.0.10' };
    expect(settingsIn('/repo', { env }).dns).toBeNull();
    expect(settingsIn('/repo', { env, project: { dns: { check: true } } }).dns).toMatchObject({ servers: ['10.0.0.9', '10.0.0.10'], serversFrom: 'AUTOJOIN_DNS_SERVERS', strict: false });
    const project = { dns: { servers: ['10.0.0.53'], strict: true, timeoutSeconds: 2 } };
    expect(settingsIn('/repo', { env, project, flags: { dnsCheck: { dns: true } } }).dns).toMatchObject({ servers: ['10.0.0.53'], strict: true, timeoutMs: 2000 });
    const flagged = settingsIn('/repo', { env, project, flags: { dnsCheck: { servers: ['127.0.0.1:5353'], serversFrom: 'input dns-servers' } } }).dns;
    expect(flagged).toMatchObject({ servers: ['127.0.0.1:5353'], serversFrom: 'input dns-servers' });
  });

  it('resolveSettings turns a resolver named by host into its address, and names where an unusable one was given', async () => {
    const dir = tempDirOfTest('autojoin-dns-settings-');
    const resolve = (servers: string[]) =>
      resolveSettings({ cwd: dir, paths: ['.'], flags: { dnsCheck: { servers, serversFrom: 'input dns-servers' } }, env: {}, report: () => undefined });
    expect((await resolve(['localhost:5353'])).dns?.servers).toEqual([expect.stringMatching(/^(127\.0\.0\.1:5353|\[::1\]:5353)$/)]);
    await expect(resolve(['10.0.0.1:99999'])).rejects.toThrow('input dns-servers: "10.0.0.1:99999" is not a resolver address');
  });
});
