/**
 * The CLI behind a proxy and in front of a service with a private CA, all on this machine:
 * HTTPS_PROXY / NO_PROXY through a real CONNECT proxy to a service on an outward address (the
 * machine's own non-loopback IPv4), a loopback service never through any proxy,
 * NODE_EXTRA_CA_CERTS for the CA, and a certificate failure as one line naming the problem,
 * never a stack trace.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { requires } from '../support/requires.js';
import type { Emulator } from '../../src/emulator/index.js';
import { cli, policy, SECRET, startTestEmulator, tempProject, type TempProject } from '../e2e/support.js';
import { makeCertificates, outwardAddress, startProxy, startTlsRelay, type Listening, type TestCertificates, type TestProxy } from './support.js';

/** This machine's non-loopback address: a service there may go through a proxy (none: those tests are skipped). */
const OUTWARD = outwardAddress();

let certDir: string;
let certs: TestCertificates;
let emulator: Emulator;
let relay: Listening;
/** The https front on the outward address. */
let remote: Listening;
let proxy: TestProxy;
let project: TempProject;

beforeAll(async () => {
  certDir = await mkdtemp(join(tmpdir(), 'autojoin-ca-'));
  certs = makeCertificates(certDir, OUTWARD === undefined ? [] : [OUTWARD]);
  emulator = await startTestEmulator();
  relay = await startTlsRelay(certs, emulator.port);
  if (OUTWARD !== undefined) remote = await startTlsRelay(certs, emulator.port, OUTWARD);
  proxy = await startProxy();
  project = await tempProject({ 'a.autojoin.yaml': policy('acme', ['acme.com']) });
});

afterAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll failed part-way
  await Promise.all([relay?.close(), remote?.close(), proxy?.close(), emulator?.close(), project?.cleanup(), rm(certDir, { recursive: true, force: true })]);
});

/** `plan` against the https front, with the key from the e2e support (checked never to be printed). */
function plan(env: Record<string, string | undefined>, baseUrl = relay.url): ReturnType<typeof cli> {
  return cli(['plan'], { cwd: project.dir, env: { AUTOJOIN_BASE_URL: baseUrl, AUTOJOIN_API_KEY: SECRET, ...env } });
}

function expectOneLineError(stderr: string, pattern: RegExp): void {
  // Issue 12: the one line naming the project file and the service host comes first.
  const lines = stderr.trim().split('\n').filter((line) => !line.startsWith('using '));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(stderr).not.toMatch(/^\s+at /m);
}

describe('a service with a private CA', () => {
  it('fails with exit 1 and one line naming the certificate problem and NODE_EXTRA_CA_CERTS', async () => {
    const run = await plan({});
    expect(run.code).toBe(1);
    expectOneLineError(run.stderr, /^error: .*TLS certificate problem: .*\((UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY)\); .*NODE_EXTRA_CA_CERTS/);
  });

  it('works once NODE_EXTRA_CA_CERTS names the CA', async () => {
    const run = await plan({ NODE_EXTRA_CA_CERTS: certs.caFile });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('1 to create');
  });
});

describe('proxies, for a service on an outward address', () => {
  beforeEach((context) => requires(context, { present: OUTWARD !== undefined, reason: 'this machine has no non-loopback IPv4 address (a proxy is never used for loopback)' }));
  it('tunnels https requests through HTTPS_PROXY (CONNECT), TLS checked end to end', async () => {
    proxy.tunnels.length = 0;
    const run = await plan({ NODE_EXTRA_CA_CERTS: certs.caFile, HTTPS_PROXY: proxy.url }, remote.url);
    expect(run.code, run.stderr).toBe(0);
    expect(proxy.tunnels).toEqual([`${OUTWARD}:${remote.port}`]);
    const untrusted = await plan({ HTTPS_PROXY: proxy.url }, remote.url);
    expectOneLineError(untrusted.stderr, /TLS certificate problem/);
  });

  it('uses lower-case https_proxy too', async () => {
    proxy.tunnels.length = 0;
    const lower = await plan({ NODE_EXTRA_CA_CERTS: certs.caFile, https_proxy: proxy.url }, remote.url);
    expect(lower.code, lower.stderr).toBe(0);
    expect(proxy.tunnels).toEqual([`${OUTWARD}:${remote.port}`]);
  });

  it('goes direct for hosts in NO_PROXY', async () => {
    proxy.tunnels.length = 0;
    const run = await plan({ NODE_EXTRA_CA_CERTS: certs.caFile, HTTPS_PROXY: proxy.url, NO_PROXY: `localhost,${OUTWARD}` }, remote.url);
    expect(run.code, run.stderr).toBe(0);
    expect(proxy.tunnels).toEqual([]);
  });

  it('a proxy that cannot be reached is one error line, exit 1', async () => {
    const run = await plan({ NODE_EXTRA_CA_CERTS: certs.caFile, HTTPS_PROXY: 'http://127.0.0.1:9' }, remote.url);
    expect(run.code).toBe(1);
    expectOneLineError(run.stderr, /^error: .*ECONNREFUSED/);
  }, 30_000);
});

describe('loopback services never go through a proxy', () => {
  it('an http:// loopback service goes direct with HTTP_PROXY and HTTPS_PROXY set: the key never reaches the proxy', async () => {
    proxy.tunnels.length = 0;
    proxy.forwarded.length = 0;
    const env = { HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url, http_proxy: proxy.url };
    const direct = await plan(env, emulator.url);
    expect(direct.code, direct.stderr).toBe(0);
    expect(direct.stdout).toContain('1 to create');
    expect(proxy.tunnels).toEqual([]);
    expect(proxy.forwarded).toEqual([]);
  });

  it('an https:// loopback service goes direct with HTTPS_PROXY set', async () => {
    proxy.tunnels.length = 0;
    const run = await plan({ NODE_EXTRA_CA_CERTS: certs.caFile, HTTPS_PROXY: proxy.url });
    expect(run.code, run.stderr).toBe(0);
    expect(proxy.tunnels).toEqual([]);
  });

  it('never sends the embedded emulator through a proxy', async () => {
    const local = await tempProject({ 'a.autojoin.yaml': policy('acme', ['acme.com']) });
    try {
      const run = await cli(['plan'], { cwd: local.dir, env: { HTTP_PROXY: 'http://127.0.0.1:9', HTTPS_PROXY: 'http://127.0.0.1:9' } });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain('embedded emulator');
    } finally {
      await local.cleanup();
    }
  });
});
