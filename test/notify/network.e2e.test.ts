/**
 * The built CLI, spawned, delivering its notifications as every request of a run goes: over TLS
 * with a private CA given by NODE_EXTRA_CA_CERTS, and through the CONNECT proxy of HTTPS_PROXY to
 * a receiver off loopback; with --verbose, no URL, token or secret in any output.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { emptyData, startEmulator, type Emulator } from '../../src/emulator/index.js';
import { verifySignature } from '../../src/notify/sign.js';
import { runCli } from '../support/cli.js';
import { commitAll } from '../support/git.js';
import { makeCertificates, outwardAddress, startProxy, type TestCertificates, type TestProxy } from '../network/support.js';
import { SECRET, startReceiver, type Receiver } from './support.js';

const KEY = 'sk-notify-e2e-4b2d';
const outward = outwardAddress();
let dir: string;
let certs: TestCertificates;
let emulator: Emulator;
let proxy: TestProxy;
const receivers: Receiver[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'notify-e2e-'));
  certs = makeCertificates(dir, outward ? [outward] : []);
  emulator = await startEmulator({ port: 0, data: emptyData(), apiKey: KEY });
  proxy = await startProxy();
});

afterAll(async () => {
  await Promise.all([emulator.close(), proxy.close(), ...receivers.map((r) => r.close())]);
  await rm(dir, { recursive: true, force: true });
});

async function repoWith(name: string): Promise<string> {
  const repo = path.join(dir, name);
  await import('node:fs/promises').then((fs) => fs.mkdir(repo));
  await writeFile(path.join(repo, 'autojoin-sync.yaml'), 'notify:\n  - to: webhook\n    urlEnv: AUTOJOIN_NOTIFY_HOOK_URL\n    secretEnv: AUTOJOIN_NOTIFY_HOOK_SECRET\n');
  await writeFile(path.join(repo, `${name}.autojoin.yaml`), `scope: ${name}\nscopeType: team\ncomponentId: c1\ndomains:\n  - ${name}.example\n`);
  commitAll(repo);
  return repo;
}

function expectSigned(receiver: Receiver): void {
  const request = receiver.received[0];
  expect(request).toBeDefined();
  const ok = verifySignature({
    secret: SECRET,
    timestamp: request?.headers['x-autojoin-timestamp'] as string,
    signature: request?.headers['x-autojoin-signature'] as string,
    body: request?.body ?? '',
    now: Math.floor(Date.now() / 1000),
  });
  expect(ok).toBe(true);
}

describe('notifications over the networks a run uses', () => {
  it('over TLS with a private CA (NODE_EXTRA_CA_CERTS); --verbose shows no URL, token or secret', async () => {
    const receiver = await startReceiver([200], { tls: certs });
    receivers.push(receiver);
    const repo = await repoWith('tls');
    const env = { AUTOJOIN_BASE_URL: emulator.url, AUTOJOIN_API_KEY: KEY, AUTOJOIN_NOTIFY_HOOK_URL: receiver.url, AUTOJOIN_NOTIFY_HOOK_SECRET: SECRET };
    const untrusted = await runCli(['apply', '--yes', '--verbose', '--format', 'json'], { cwd: repo, env });
    expect(untrusted.code, untrusted.stderr).toBe(0);
    expect(untrusted.stderr).toMatch(/notification to webhook \(AUTOJOIN_NOTIFY_HOOK_URL\) failed/u);
    expect(receiver.received).toHaveLength(0);
    await writeFile(path.join(repo, 'tls.autojoin.yaml'), 'scope: tls\nscopeType: team\ncomponentId: c1\ndomains:\n  - tls.example\n  - tls2.example\n');
    commitAll(repo);
    const trusted = await runCli(['apply', '--yes', '--verbose', '--format', 'json'], { cwd: repo, env: { ...env, NODE_EXTRA_CA_CERTS: certs.caFile } });
    expect(trusted.code, trusted.stderr).toBe(0);
    expectSigned(receiver);
    expect((JSON.parse(trusted.stdout) as { notifications: unknown }).notifications).toEqual([{ to: 'webhook', variable: 'AUTOJOIN_NOTIFY_HOOK_URL', delivered: true, attempts: 1 }]);
    for (const text of [untrusted.stdout, untrusted.stderr, trusted.stdout, trusted.stderr]) {
      for (const secret of [SECRET, receiver.url, 'T0SECRET/B0SECRET/tokenXYZ123456', KEY]) expect(text).not.toContain(secret);
    }
  });

  it.skipIf(outward === undefined)('through the CONNECT proxy of HTTPS_PROXY to a receiver off loopback', async () => {
    const receiver = await startReceiver([200], { tls: certs, host: outward ?? '127.0.0.1' });
    receivers.push(receiver);
    const repo = await repoWith('proxied');
    const env = {
      AUTOJOIN_BASE_URL: emulator.url,
      AUTOJOIN_API_KEY: KEY,
      AUTOJOIN_NOTIFY_HOOK_URL: receiver.url,
      AUTOJOIN_NOTIFY_HOOK_SECRET: SECRET,
      HTTPS_PROXY: proxy.url,
      NODE_EXTRA_CA_CERTS: certs.caFile,
    };
    const result = await runCli(['apply', '--yes'], { cwd: repo, env });
    expect(result.code, result.stderr).toBe(0);
    expectSigned(receiver);
    expect(proxy.tunnels).toContain(new URL(receiver.url).host);
  });
});
