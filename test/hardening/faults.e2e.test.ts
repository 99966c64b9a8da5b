/**
 * Convergence under faults: against an emulator that answers 20 % of requests with a fault
 * (500, 503, 429 + Retry-After, connection reset, slow answer, truncated body; fixed seed),
 * apply must leave every scope exactly as declared or report it failed, never anything in
 * between; a scope reported failed for sure is not written, one whose write may or may not have
 * been stored (no answer after it was sent) may be either; a second run without faults finishes
 * the job and a plan then shows no changes.
 * 50 scopes always; 500 with AUTOJOIN_LONG_TESTS=1 (set by .ci/run).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_FAULTS, startEmulator } from '../../src/emulator/index.js';
import { runCli } from '../support/cli.js';
import { KEY, LONG, expectAllDeclared, expectDeclaredOrBefore, makeEstate, notWrittenAsDeclared, readDataFile, reportedFailed, reportedUnknown, serviceEnv, tempDir, useCleanups, writeEstate } from './support.js';

const SCOPES = LONG ? 500 : 50;
const TIMEOUT = LONG ? 600_000 : 60_000;

const cleanups = useCleanups();

describe(`apply under a 20 % fault rate (${SCOPES} scopes)`, () => {
  it('ends every scope as declared or reports it failed; a second run converges; plan then shows nothing', { timeout: TIMEOUT }, async () => {
    const dir = await tempDir(cleanups);
    const dataFile = path.join(dir, 'emulator.json');
    const estate = makeEstate(SCOPES);
    const declared = estate.declared(0);
    await writeEstate(path.join(dir, 'policies'), declared);

    const faulty = await startEmulator({ port: 0, dataFile, data: estate.seed, apiKey: KEY, faultRate: 0.2, faultSeed: 42, slowMs: 50 });
    cleanups.push(() => faulty.close());
    const first = await runCli(['apply', 'policies', '--yes'], { cwd: dir, env: serviceEnv(faulty.url), timeoutMs: TIMEOUT });
    const faultsSeen = new Set(faulty.requests.flatMap((request) => (request.fault ? [request.fault] : [])));
    const after = faulty.data();
    await faulty.close();
    await readDataFile(dataFile);

    expect([...faultsSeen].sort()).toEqual([...ALL_FAULTS].sort());
    expect(first.signal).toBeNull();
    const pending = expectDeclaredOrBefore(after, declared, estate.seed);
    if (first.code === 0) {
      expect(notWrittenAsDeclared(after, declared)).toEqual([]);
      expect(first.stdout).toMatch(/^Applied \d+, failed 0, skipped 0\.$/m);
    } else if (/^error: reading \S+ failed: /m.test(first.stderr)) {
      // The read gave up on a scope (all retries faulted): then nothing may have been written.
      expect(pending.length, first.stderr).toBe(expectDeclaredOrBefore(estate.seed, declared, estate.seed).length);
    } else {
      expect(first.code, first.stderr).toBe(1);
      // Failed for sure: not written. Failed with an unknown outcome (no answer after the request
      // was sent): written or not, either may be true. Every scope not written was reported.
      const failed = reportedFailed(first.stdout);
      const unknown = reportedUnknown(first.stdout);
      const notWritten = notWrittenAsDeclared(after, declared);
      expect(failed.filter((key) => !unknown.includes(key))).toEqual(notWritten.filter((key) => !unknown.includes(key)));
      expect(pending.every((key) => failed.includes(key))).toBe(true);
      expect(first.stdout).toMatch(new RegExp(`^Applied \\d+, failed ${failed.length}, skipped 0\\.$`, 'm'));
    }

    const calm = await startEmulator({ port: 0, dataFile, apiKey: KEY });
    cleanups.push(() => calm.close());
    const second = await runCli(['apply', 'policies', '--yes'], { cwd: dir, env: serviceEnv(calm.url), timeoutMs: TIMEOUT });
    expect(second.code, second.stderr).toBe(0);
    expectAllDeclared(calm.data(), declared);
    const plan = await runCli(['plan', 'policies', '--detailed-exitcode'], { cwd: dir, env: serviceEnv(calm.url), timeoutMs: TIMEOUT });
    expect(plan.code, plan.stderr + plan.stdout).toBe(0);
    expect(plan.stdout).toContain(`No changes. ${SCOPES} scopes match their policy files.`);
  });
});

/**
 * A proxy in front of the emulator that answers 503 to every write of the scopes in `broken`:
 * a deterministic way to exhaust the client's retries on some scopes and not on others.
 */
async function breakingProxy(target: string, broken: Set<string>): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const scope = request.method === 'POST' ? (JSON.parse(body.toString() || '{}') as { scope?: string }).scope : undefined;
      if (scope !== undefined && broken.has(scope)) {
        response.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' });
        response.end(JSON.stringify({ statusCode: 503, message: `proxy refuses writes to ${scope}`, error: 'Service Unavailable' }));
        return;
      }
      const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => ['x-api-key', 'content-type', 'accept'].includes(name))) as Record<string, string>;
      void fetch(`${target}${request.url ?? '/'}`, { method: request.method, headers, body: request.method === 'POST' ? body : undefined }).then(async (answer) => {
        response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
        response.end(Buffer.from(await answer.arrayBuffer()));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

describe('scopes whose writes keep failing', () => {
  it('are reported failed with the reason, are left as they were, and a rerun converges', { timeout: TIMEOUT }, async () => {
    const dir = await tempDir(cleanups);
    const estate = makeEstate(SCOPES);
    const declared = estate.declared(0);
    await writeEstate(path.join(dir, 'policies'), declared);
    const emulator = await startEmulator({ port: 0, data: estate.seed, apiKey: KEY });
    cleanups.push(() => emulator.close());
    const broken = new Set(['scope-0002', `fresh-${String(SCOPES - 1).padStart(4, '0')}`]); // an update and a create
    const proxy = await breakingProxy(emulator.url, broken);
    cleanups.push(() => proxy.close());

    const first = await runCli(['apply', 'policies', '--yes'], { cwd: dir, env: serviceEnv(proxy.url), timeoutMs: TIMEOUT });
    expect(first.code, first.stderr).toBe(1);
    const pending = expectDeclaredOrBefore(emulator.data(), declared, estate.seed);
    expect(pending).toEqual([...broken].map((scope) => (scope.startsWith('fresh-') ? `workspace/${scope}` : `team/${scope}`)).sort());
    expect(reportedFailed(first.stdout)).toEqual(pending);
    for (const scope of broken) {
      expect(first.stdout).toMatch(new RegExp(`^failed\\s+\\S+/${scope}\\s+\\w+: \\[POST\\] /api/v1/invitations/autojoin: 503 proxy refuses writes to ${scope} \\(gave up after 5 attempts\\)$`, 'm'));
    }
    expect(first.stdout).toMatch(new RegExp(`^Applied \\d+, failed 2, skipped 0\\.$`, 'm'));

    const second = await runCli(['apply', 'policies', '--yes'], { cwd: dir, env: serviceEnv(emulator.url), timeoutMs: TIMEOUT });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toMatch(/^Applied 2, failed 0, skipped 0\.$/m);
    expectAllDeclared(emulator.data(), declared);
  });
});
