/**
 * Ctrl-C (SIGINT) during apply: exit 130 whatever the moment (docs/cli.md, "Exit codes";
 * src/cli/apply-interrupt.ts). Before any write nothing is written; during the writes the POSTs in
 * flight finish, no new one starts and the report lists the scopes left out as skipped; a second
 * Ctrl-C prints the report of what was written so far and stops at once. Each moment is reached
 * without a clock: the emulator holds a chosen request in flight (`beforeAnswer`) until the test
 * lets it go, and the test waits for the CLI's own words on stderr.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { CLI_PATH } from '../support/cli.js';
import { expectNoSecret, liveDomains, policy, posts, SECRET, startTestEmulator, tempProject, useEmulatorProject, type TempProject } from './support.js';

let emulator: Emulator;
let project: TempProject;
useEmulatorProject(() => ({ emulator, project }));

/**
 * Holds the `nth` request of `method` (1-based) and every later one in flight until `release()`;
 * `arrived` resolves when the `nth` arrives.
 */
function hold(method: string, nth: number) {
  let count = 0;
  let arrive: () => void = () => undefined;
  let release: () => void = () => undefined;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const beforeAnswer = (request: { method: string }): Promise<void> | undefined => {
    if (request.method !== method || ++count < nth) return undefined;
    if (count === nth) arrive();
    return released;
  };
  return { beforeAnswer, arrived, release };
}

/** The built CLI's apply in `project`, with stderr markers to wait on. */
function apply() {
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', NO_COLOR: '1', AUTOJOIN_BASE_URL: emulator.url, AUTOJOIN_API_KEY: SECRET };
  const child = spawn(process.execPath, [CLI_PATH, 'apply', '--yes', '--concurrency', '1'], { cwd: project.dir, env, stdio: 'pipe' });
  const out = { stdout: '', stderr: '' };
  const waiting: { text: string; resolve: () => void }[] = [];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out.stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    out.stderr += chunk;
    for (const wait of waiting.filter((one) => out.stderr.includes(one.text))) wait.resolve();
  });
  const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  /** Resolves once stderr shows `text`. */
  const said = (text: string): Promise<void> => (out.stderr.includes(text) ? Promise.resolve() : new Promise((resolve) => waiting.push({ text, resolve })));
  return { child, out, closed, said };
}

async function setUp(scopes: readonly string[], gate: ReturnType<typeof hold>): Promise<void> {
  emulator = await startTestEmulator({ beforeAnswer: gate.beforeAnswer });
  project = await tempProject(Object.fromEntries(scopes.map((scope) => [`${scope}.autojoin.yaml`, policy(scope, [`${scope}.example`])])));
}

function counts(stdout: string): { applied: number; failed: number; skipped: number } {
  const match = /^Applied (\d+), failed (\d+), skipped (\d+)\.$/m.exec(stdout);
  if (!match) throw new Error(`no report line in: ${stdout}`);
  return { applied: Number(match[1]), failed: Number(match[2]), skipped: Number(match[3]) };
}

const written = (scopes: readonly string[]): string[] => scopes.filter((scope) => liveDomains(emulator.data(), scope) !== null);

describe('apply interrupted by Ctrl-C: exit 130 whatever the moment', () => {
  it('during the writes: the write in flight finishes, no new one starts, the report lists the rest as skipped', async () => {
    const scopes = ['i1', 'i2', 'i3'];
    const gate = hold('POST', 2);
    await setUp(scopes, gate);
    const run = apply();
    await gate.arrived; // the first write is answered, the second is in flight
    run.child.kill('SIGINT');
    await run.said('interrupted: finishing the requests in flight, starting no more');
    gate.release();
    const code = await run.closed;

    expectNoSecret(run.out.stdout + run.out.stderr, 'output of the interrupted apply');
    expect(counts(run.out.stdout)).toEqual({ applied: 2, failed: 0, skipped: 1 });
    expect(run.out.stdout).toContain('not attempted: the run was interrupted');
    expect(written(scopes)).toHaveLength(2);
    expect(posts(emulator)).toBe(2);
    expect(code).toBe(130);
  });

  it('during the last write: nothing is left out, and the exit is still 130 (it was 0)', async () => {
    const scopes = ['i1'];
    const gate = hold('POST', 1);
    await setUp(scopes, gate);
    const run = apply();
    await gate.arrived;
    run.child.kill('SIGINT');
    await run.said('interrupted: finishing the requests in flight');
    gate.release();
    const code = await run.closed;

    expect(counts(run.out.stdout)).toEqual({ applied: 1, failed: 0, skipped: 0 });
    expect(code).toBe(130);
  });

  it('a second Ctrl-C prints the report of what was written so far, the write in flight named so, and stops at once', async () => {
    const scopes = ['i1', 'i2', 'i3'];
    const gate = hold('POST', 2);
    await setUp(scopes, gate);
    const run = apply();
    await gate.arrived;
    run.child.kill('SIGINT');
    await run.said('interrupted: finishing the requests in flight');
    run.child.kill('SIGINT');
    // The second write is still held by the emulator: the CLI stops without its answer.
    const code = await run.closed;
    gate.release();

    expectNoSecret(run.out.stdout + run.out.stderr, 'output of the twice-interrupted apply');
    expect(run.out.stderr).toContain('interrupted again: stopping now; the report below is what was written so far');
    expect(counts(run.out.stdout)).toEqual({ applied: 1, failed: 0, skipped: 2 });
    expect(run.out.stdout).toContain('in flight when the run stopped: its write may or may not have been stored');
    expect(run.out.stdout).toContain('not attempted: the run was interrupted');
    expect(code).toBe(130);
  });

  it('before any write (while reading): nothing is written, exit 130', async () => {
    const scopes = ['i1', 'i2'];
    const gate = hold('GET', 1);
    await setUp(scopes, gate);
    const run = apply();
    await gate.arrived; // the first read is in flight
    run.child.kill('SIGINT');
    const code = await run.closed;
    gate.release();

    expect(run.out.stderr).toContain('interrupted before any write: nothing was written');
    expect(posts(emulator)).toBe(0);
    expect(written(scopes)).toEqual([]);
    expect(code).toBe(130);
  });
});
