/**
 * `autojoin-sync emulator` as a user runs it: the built CLI in its own process.
 * Runs dist/cli.js, which vitest's globalSetup builds.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_PATH, runCli } from '../support/cli.js';

interface Running {
  url: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal: NodeJS.Signals): void;
}

function startCli(args: string[], env: Record<string, string> = {}): Promise<Running> {
  const child = spawn(process.execPath, [CLI_PATH, 'emulator', ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line; stderr: ${stderr}`)), 15_000);
    child.stdout.on('data', () => {
      const url = /^listening on (http:\/\/127\.0\.0\.1:\d+)\n/u.exec(stdout)?.[1];
      if (!url) return;
      clearTimeout(timer);
      resolve({ url, stdout: () => stdout, stderr: () => stderr, exited, kill: (signal) => child.kill(signal) });
    });
    void exited.then(() => reject(new Error(`emulator exited early; stderr: ${stderr}`)));
  });
}

describe('autojoin-sync emulator', () => {
  it('prints one listening line, serves requests and exits 0 on SIGTERM', async () => {
    const running = await startCli(['--port', '0', '--seed-scopes', '2', '--seed-domains', '1']);
    const response = await fetch(`${running.url}/api/v1/invitations/by-scope/team/scope-0002/autojoin`, {
      headers: { 'x-api-key': 'local-emulator-key' },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ autojoinDomains: [{ domain: 'd1.scope-0002.example' }] });
    running.kill('SIGTERM');
    expect(await running.exited).toEqual({ code: 0, signal: null });
    expect(running.stdout()).toBe(`listening on ${running.url}\n`);
    expect(running.stderr()).toContain('default local key local-emulator-key');
  });

  it('accepts the key from AUTOJOIN_API_KEY without ever printing it, keeps --data, and stops on SIGINT', async () => {
    const secret = 'env-key-7f3a9c';
    const dir = await mkdtemp(join(tmpdir(), 'autojoin-emulator-cli-'));
    const file = join(dir, 'state.json');
    const running = await startCli(['--port', '0', '--data', file], { AUTOJOIN_API_KEY: secret, AUTOJOIN_ACCESS_TOKEN: 'env-token-1b2c' });
    const list = (key: string) => fetch(`${running.url}/api/v1/invitations/by-scope/team/x`, { headers: { 'x-api-key': key } });
    expect((await list(secret)).status).toBe(200);
    expect((await list('local-emulator-key')).status).toBe(401);
    const synced = await fetch(`${running.url}/api/v1/invitations/autojoin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': secret },
      body: JSON.stringify({ domains: ['acme.com'], scope: 'x', scopeType: 'team', componentId: 'c' }),
    });
    expect(synced.status).toBe(200);
    running.kill('SIGINT');
    expect((await running.exited).code).toBe(0);
    const state = JSON.parse(await readFile(file, 'utf8')) as { scopes: Record<string, unknown> };
    await rm(dir, { recursive: true, force: true });
    expect(Object.keys(state.scopes)).toEqual(['team/x']);
    expect(JSON.stringify(state)).not.toContain(secret);
    expect(running.stderr()).toContain('from AUTOJOIN_API_KEY');
    expect(running.stderr()).toContain('from AUTOJOIN_ACCESS_TOKEN');
    expect(running.stdout() + running.stderr()).not.toContain(secret);
    expect(running.stdout() + running.stderr()).not.toContain('env-token-1b2c');
  });

  it('rejects bad flags with exit 1', async () => {
    const badPort = await runCli(['emulator', '--port', 'x']);
    expect(badPort.code).toBe(1);
    expect(badPort.stderr).toContain('--port must be a whole number');
    const badFault = await runCli(['emulator', '--port', '0', '--faults', '500,boom']);
    expect(badFault.code).toBe(1);
    expect(badFault.stderr).toContain('unknown fault "boom"');
    expect(badFault.stdout).toBe('');
  });

  it('names a busy port clearly', async () => {
    const running = await startCli(['--port', '0']);
    const port = new URL(running.url).port;
    const second = await runCli(['emulator', '--port', port]);
    running.kill('SIGTERM');
    await running.exited;
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
  });

  it('has help with an example', async () => {
    const help = await runCli(['emulator', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--fault-rate <r>');
    expect(help.stdout).toContain('Example:');
  });
});
