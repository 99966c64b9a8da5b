/**
 * A dripping server (issue 12): one byte at a time keeps undici's idle timers happy forever.
 * Every request attempt has a total deadline, so the run ends, with exit 1 naming it.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, readLiveState } from '../../src/service/index.js';
import { cli, policy, tempProject, type TempProject } from '../e2e/support.js';

let server: Server | undefined;
let project: TempProject | undefined;
const timers = new Set<NodeJS.Timeout>();

afterEach(async () => {
  for (const timer of timers) clearInterval(timer);
  timers.clear();
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  await project?.cleanup();
  server = undefined;
  project = undefined;
});

/** Answers every request with headers at once, then one byte of body every 200 ms, never ending. */
async function dripping(): Promise<string> {
  server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' });
    const timer = setInterval(() => response.write(' '), 200);
    timers.add(timer);
    response.on('close', () => clearInterval(timer));
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('the request deadline', () => {
  it('ends each attempt at a dripping server at its deadline; the retry budget bounds the call', async () => {
    const url = await dripping();
    const client = createClient({ baseUrl: url, apiKey: 'k', requestTimeoutMs: 500, retry: { maxRetries: 1, minDelayMs: 5, maxDelayMs: 10 } });
    const started = performance.now();
    const error = await readLiveState(client, [{ scopeType: 'team', scope: 'x' }], { mode: 'by-scope' }).then(() => undefined, (caught: unknown) => caught);
    await client.close();
    expect(performance.now() - started).toBeLessThan(3_000);
    assert(error instanceof Error, 'the call should have failed');
    expect(error.message).toContain('(gave up after 2 attempts)');
    expect(error.message).toContain('no complete answer within the 500 ms request deadline');
  });

  it.each([
    ['--request-timeout 1', ['--request-timeout', '1'], {}],
    ['AUTOJOIN_REQUEST_TIMEOUT=1', [], { AUTOJOIN_REQUEST_TIMEOUT: '1' }],
  ])('plan against a dripping server ends with exit 1 naming the deadline (%s)', async (_name, flags, env) => {
    const url = await dripping();
    project = await tempProject({ 'a.autojoin.yaml': policy('a', ['a.example']) });
    const started = performance.now();
    const result = await cli(['plan', ...flags], { cwd: project.dir, env: { AUTOJOIN_BASE_URL: url, AUTOJOIN_API_KEY: 'k', ...env } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('no complete answer within the 1 s request deadline');
    // 5 attempts of 1 s and their backoff: seconds, not the hours a dripping server could take.
    expect(performance.now() - started).toBeLessThan(30_000);
  }, 40_000);

  it.each([
    ['email list', ['email', 'list']],
    ['form-style get', ['form-style', 'get', 'fsp-default']],
  ])('presets %s takes --request-timeout and ends at a dripping server with exit 1 naming it', async (_name, command) => {
    const url = await dripping();
    project = await tempProject({});
    const started = performance.now();
    const result = await cli(['presets', ...command, '--request-timeout', '1'], { cwd: project.dir, env: { AUTOJOIN_BASE_URL: url, AUTOJOIN_ACCESS_TOKEN: 'deadline-token-9f3b' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('no complete answer within the 1 s request deadline');
    expect(performance.now() - started).toBeLessThan(30_000);
  }, 40_000);

  it('refuses an AUTOJOIN_REQUEST_TIMEOUT that is not a whole number of seconds', async () => {
    project = await tempProject({ 'a.autojoin.yaml': policy('a', ['a.example']) });
    const result = await cli(['plan'], { cwd: project.dir, env: { AUTOJOIN_BASE_URL: 'https://invitations.example.com', AUTOJOIN_API_KEY: 'k', AUTOJOIN_REQUEST_TIMEOUT: '1e3' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('AUTOJOIN_REQUEST_TIMEOUT must be a whole number of seconds');
  });
});
