/**
 * Ctrl-C during apply: the POSTs in flight finish, no new one starts, the report lists the
 * scopes left out as skipped, and the exit code says the run did not finish.
 */
import { spawn } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { CLI_PATH } from '../support/cli.js';
import { expectNoSecret, liveDomains, policy, posts, SECRET, startTestEmulator, tempProject, useEmulatorProject, type TempProject } from './support.js';

const SCOPES = ['i1', 'i2', 'i3', 'i4', 'i5', 'i6'];

let emulator: Emulator;
let project: TempProject;
useEmulatorProject(() => ({ emulator, project }));

describe('apply interrupted by SIGINT', () => {
  it('skips the scopes not yet started and exits 1', async () => {
    emulator = await startTestEmulator({ latencyMs: 300 });
    project = await tempProject(Object.fromEntries(SCOPES.map((scope) => [`${scope}.autojoin.yaml`, policy(scope, [`${scope}.example`])])));
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', NO_COLOR: '1', AUTOJOIN_BASE_URL: emulator.url, AUTOJOIN_API_KEY: SECRET };
    const child = spawn(process.execPath, [CLI_PATH, 'apply', '--yes', '--concurrency', '1'], { cwd: project.dir, env, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    // The first answered POST means apply has started; the next one is still waiting out its latency.
    for (let waited = 0; posts(emulator) === 0 && waited < 30_000; waited += 10) await delay(10);
    child.kill('SIGINT');
    const code = await closed;

    expectNoSecret(stdout + stderr, 'output of the interrupted apply');
    expect(stderr).toContain('interrupted: finishing the requests in flight, starting no more');
    const counts = /^Applied (\d+), failed 0, skipped (\d+)\.$/m.exec(stdout);
    const [applied, skipped] = [Number(counts?.[1]), Number(counts?.[2])];
    expect(applied).toBeGreaterThan(0);
    expect(skipped).toBeGreaterThan(0);
    expect(applied + skipped).toBe(SCOPES.length);
    expect(stdout).toContain('not attempted: the run was interrupted');
    expect(SCOPES.filter((scope) => liveDomains(emulator.data(), scope) !== null)).toHaveLength(applied);
    expect(code).toBe(1);
  });
});
