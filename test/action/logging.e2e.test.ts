/** AUTOJOIN_LOG=debug in the action: one log line per HTTP request, as --verbose in the CLI; none without it. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptyData, startEmulator, type Emulator } from '../../src/emulator/index.js';
import { runAction, type ActionRun } from './support/run-action.js';

const API_KEY = 'ak-logging-test-NEVER-SHOWN-91ce';

let emulator: Emulator;
let workspace: string;

beforeEach(async () => {
  emulator = await startEmulator({ port: 0, data: emptyData(), apiKey: API_KEY });
  workspace = await mkdtemp(join(tmpdir(), 'autojoin-action-log-'));
  await mkdir(join(workspace, 'policies'));
  await writeFile(join(workspace, 'policies/eng.autojoin.yaml'), 'scope: acme-eng\nscopeType: team\ncomponentId: cmp_1\ndomains: [acme.com]\n');
});

afterEach(async () => {
  await Promise.all([emulator.close(), rm(workspace, { recursive: true, force: true })]);
});

function plan(env: Record<string, string>): Promise<ActionRun> {
  return runAction({
    inputs: { command: 'plan', path: 'policies', 'base-url': emulator.url, 'api-key': API_KEY, comment: 'false' },
    workspace,
    eventName: 'schedule',
    payload: {},
    apiUrl: 'http://127.0.0.1:9',
    env,
  });
}

describe('action logging', () => {
  it('AUTOJOIN_LOG=debug logs each request (method, path, status, ms), never the key', async () => {
    const debug = await plan({ AUTOJOIN_LOG: 'debug' });
    expect(debug.code, debug.stdout).toBe(0);
    expect(debug.stdout).toMatch(/^http: GET \/api\/v1\/invitations\/by-scope\/team\/acme-eng\/autojoin 200 \d+ ms$/m);
    const stdout = debug.stdout.split('\n').filter((line) => !line.startsWith('::add-mask::')).join('\n');
    expect(stdout).not.toContain(API_KEY);
    const normal = await plan({});
    expect(normal.stdout).not.toContain('http: GET');
  });
});
