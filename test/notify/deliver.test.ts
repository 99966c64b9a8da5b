/**
 * Delivery against real receivers on 127.0.0.1 (HTTP, and HTTPS with a private CA): retries on
 * 5xx, 429 and a dead connection, at most 3 attempts, a deadline injected (no real 10 s wait),
 * a redirect never followed, any 2xx delivered; and the targets' checks of their variables.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Agent } from 'undici';
import { deliver } from '../../src/notify/deliver.js';
import { resolveTargets, type NotifyTarget } from '../../src/notify/targets.js';
import { verifySignature } from '../../src/notify/sign.js';
import { makeCertificates, type TestCertificates } from '../network/support.js';
import { SECRET, startReceiver, type Answer, type Receiver } from './support.js';

const open: Receiver[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((receiver) => receiver.close()));
});

async function receiver(answers: Answer[], options: Parameters<typeof startReceiver>[1] = {}): Promise<Receiver> {
  const started = await startReceiver(answers, options);
  open.push(started);
  return started;
}

function target(url: string, extra: Partial<NotifyTarget> = {}): NotifyTarget {
  return { to: 'webhook', variable: 'AUTOJOIN_NOTIFY_HOOK_URL', url: new URL(url), secret: SECRET, on: new Set(['applied']), required: false, ...extra };
}

const FAST = { retryDelayMs: 5, deadlineMs: 5_000 };

describe('deliver', () => {
  it('signs the body: the receiver checks it with the secret and the timestamp', async () => {
    const hook = await receiver([200]);
    const result = await deliver(target(hook.url), '{"version":1}', { ...FAST, now: () => 1_700_000_000 });
    expect(result).toEqual({ to: 'webhook', variable: 'AUTOJOIN_NOTIFY_HOOK_URL', delivered: true, attempts: 1 });
    const request = hook.received[0];
    expect(request?.headers['x-autojoin-timestamp']).toBe('1700000000');
    const check = { secret: SECRET, timestamp: '1700000000', signature: request?.headers['x-autojoin-signature'] as string, body: request?.body ?? '' };
    expect(verifySignature({ ...check, now: 1_700_000_100 })).toBe(true);
    expect(verifySignature({ ...check, now: 1_700_000_100, secret: `${SECRET}x` })).toBe(false);
    // An old timestamp is a replay.
    expect(verifySignature({ ...check, now: 1_700_000_000 + 301 })).toBe(false);
  });

  it('500 always: 3 attempts, not delivered', async () => {
    const hook = await receiver([500]);
    const result = await deliver(target(hook.url), '{}', FAST);
    expect(result).toMatchObject({ delivered: false, attempts: 3, problem: 'HTTP 500' });
    expect(hook.received).toHaveLength(3);
  });

  it('500 twice, then 200: delivered on the third attempt; 429 then 202 (a Workflows hook) on the second', async () => {
    const hook = await receiver([500, 500, 200]);
    expect(await deliver(target(hook.url), '{}', FAST)).toMatchObject({ delivered: true, attempts: 3 });
    const teams = await receiver([429, 202]);
    expect(await deliver(target(teams.url, { to: 'teams', secret: undefined }), '{}', FAST)).toMatchObject({ delivered: true, attempts: 2 });
    expect(teams.received[1]?.headers['x-autojoin-signature']).toBeUndefined();
  });

  it('a receiver slower than the deadline: given up at the deadline (injected), not delivered', async () => {
    const hook = await receiver(['hang']);
    const result = await deliver(target(hook.url), '{}', { retryDelayMs: 5, deadlineMs: 300 });
    expect(result).toMatchObject({ delivered: false, problem: expect.stringMatching(/^timeout/u) });
    expect(result.attempts).toBeLessThanOrEqual(3);
  });

  it('a redirect is not followed', async () => {
    const hook = await receiver(['redirect', 200]);
    const result = await deliver(target(hook.url), '{}', FAST);
    expect(result).toMatchObject({ delivered: false, attempts: 1, problem: 'HTTP 302 (a redirect, not followed)' });
    expect(hook.received.map((request) => request.path)).toEqual(['/hooks/T0SECRET/B0SECRET/tokenXYZ123456']);
  });

  it('nothing listening: a network error, retried, not delivered, the URL never in the problem', async () => {
    const hook = await receiver([200]);
    const url = hook.url;
    await hook.close();
    open.splice(0);
    const result = await deliver(target(url), '{}', FAST);
    expect(result).toMatchObject({ delivered: false, attempts: 3 });
    expect(result.problem).not.toContain('T0SECRET');
  });

  describe('over TLS with a private CA', () => {
    let dir: string;
    let certs: TestCertificates;
    beforeAll(async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'notify-tls-'));
      certs = makeCertificates(dir);
      return () => rm(dir, { recursive: true, force: true });
    });

    it('delivered when the CA is trusted; refused (not retried into success) when it is not', async () => {
      const hook = await receiver([200], { tls: certs });
      const trusting = new Agent({ connect: { ca: readFileSync(certs.caFile, 'utf8') } });
      try {
        expect(await deliver(target(hook.url), '{}', { ...FAST, dispatcher: trusting })).toMatchObject({ delivered: true, attempts: 1 });
      } finally {
        await trusting.close();
      }
      const refused = await deliver(target(hook.url), '{}', FAST);
      expect(refused.delivered).toBe(false);
      expect(hook.received).toHaveLength(1);
    });
  });
});

describe('targets from the project file and the environment', () => {
  const entries = [
    { to: 'webhook' as const, urlEnv: 'AUTOJOIN_NOTIFY_A', secretEnv: 'AUTOJOIN_NOTIFY_A_SECRET' },
    { to: 'slack' as const, urlEnv: 'AUTOJOIN_NOTIFY_B', on: ['refused' as const] },
    { to: 'slack' as const, urlEnv: 'AUTOJOIN_NOTIFY_B', on: ['drift' as const], required: true },
  ];

  it('one target per URL variable, their events and required merged', () => {
    const { targets, skipped } = resolveTargets(entries, { AUTOJOIN_NOTIFY_A: 'https://hooks.example.com/x', AUTOJOIN_NOTIFY_A_SECRET: SECRET, AUTOJOIN_NOTIFY_B: 'https://hooks.slack.com/services/T/B/C' });
    expect(skipped).toEqual([]);
    expect(targets.map((t) => [t.to, t.variable, [...t.on], t.required])).toEqual([
      ['webhook', 'AUTOJOIN_NOTIFY_A', ['applied', 'refused', 'failed', 'drift'], false],
      ['slack', 'AUTOJOIN_NOTIFY_B', ['refused', 'drift'], true],
    ]);
  });

  it.each([
    ['http://hooks.example.com/x', 'is an http:// URL to a host that is not loopback'],
    ['https://user:pass@hooks.example.com/x', 'credentials'],
    ['ftp://hooks.example.com/x', 'is not an https:// URL'],
    ['not a url', 'is not a URL'],
  ])('the URL %s is refused, its value never quoted', (url, problem) => {
    const { targets, skipped } = resolveTargets(entries.slice(0, 1), { AUTOJOIN_NOTIFY_A: url, AUTOJOIN_NOTIFY_A_SECRET: SECRET });
    expect(targets).toEqual([]);
    expect(skipped[0]?.problem).toContain(problem);
    expect(skipped[0]?.problem).not.toContain(url);
  });

  it('http:// to loopback is accepted; a secret under 32 bytes or unset skips the webhook (never unsigned)', () => {
    expect(resolveTargets(entries.slice(0, 1), { AUTOJOIN_NOTIFY_A: 'http://127.0.0.1:9/x', AUTOJOIN_NOTIFY_A_SECRET: SECRET }).targets).toHaveLength(1);
    const short = resolveTargets(entries.slice(0, 1), { AUTOJOIN_NOTIFY_A: 'https://hooks.example.com/x', AUTOJOIN_NOTIFY_A_SECRET: 'x'.repeat(31) });
    expect(short.skipped[0]?.problem).toBe('AUTOJOIN_NOTIFY_A_SECRET (the signing secret of AUTOJOIN_NOTIFY_A) is shorter than 32 bytes');
    const unset = resolveTargets(entries.slice(0, 1), { AUTOJOIN_NOTIFY_A: 'https://hooks.example.com/x' });
    expect(unset.skipped[0]).toMatchObject({ unset: true, problem: expect.stringContaining('never sent unsigned') });
  });
});
