/**
 * The action's settings as GitHub runs it (`node dist/action.js`): the project file is found from
 * `path`, not from the workspace, and in a pull request it may not choose the base URL that
 * receives the API key.
 */
import { createServer, type Server } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptyData, startEmulator, type Emulator } from '../../src/emulator/index.js';
import { commitAll } from '../support/git.js';
import { writeFiles } from '../e2e/support.js';
import { pullRequestPayload, pushPayload, runAction } from './support/run-action.js';

const API_KEY = 'ak-settings-test-NEVER-SHOWN-91ce';
const BARE = 'scope: eng\nscopeType: team\ndomains: [eng.example]\n';

let workspace: string;
let emulator: Emulator;
let listener: Server;
let connections = 0;
let trap: string;

beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'autojoin-action-settings-'));
  emulator = await startEmulator({ port: 0, data: emptyData(), apiKey: API_KEY });
  connections = 0;
  listener = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const address = listener.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  trap = `http://127.0.0.1:${address.port}`;
});

afterEach(async () => {
  await Promise.all([emulator.close(), new Promise((resolve) => listener.close(resolve)), rm(workspace, { recursive: true, force: true })]);
});

describe('action settings', () => {
  it('finds the project file of `path: estate/policies` in the checkout estate/, not in the workspace', async () => {
    await writeFiles(join(workspace, 'estate'), { 'autojoin-sync.yaml': 'defaults:\n  componentId: cmp_estate\n', 'policies/eng.autojoin.yaml': BARE });
    commitAll(join(workspace, 'estate'));
    const run = await runAction({
      inputs: { command: 'plan', path: 'estate/policies', 'base-url': emulator.url, 'api-key': API_KEY, comment: 'false' },
      workspace,
      eventName: 'push',
      payload: pushPayload('0000000000000000000000000000000000000000', 'HEAD'),
      apiUrl: 'http://127.0.0.1:9',
    });
    expect(run.outputs['exit-code'], run.stdout).toBe('2');
    expect(run.stdout).not.toContain('missing required key');
    expect(JSON.parse(run.planJson ?? '{}')).toMatchObject({ changes: [{ key: 'team/eng', after: ['eng.example'] }] });
  });

  it("in a pull request never sends the key to the base URL of the repository's own project file", async () => {
    await writeFiles(workspace, { 'autojoin-sync.yaml': `baseUrl: ${trap}\ndefaults:\n  componentId: cmp_1\n`, 'policies/eng.autojoin.yaml': BARE });
    commitAll(workspace);
    const inputs = { command: 'plan', path: 'policies', 'api-key': API_KEY, comment: 'false' };
    const common = { workspace, apiUrl: 'http://127.0.0.1:9' };
    const pr = await runAction({ ...common, inputs, eventName: 'pull_request', payload: pullRequestPayload(3) });
    expect(pr.outputs['exit-code']).toBe('1');
    expect(pr.stdout).toContain('AUTOJOIN_BASE_URL is not set');
    expect(connections).toBe(0);
    // The same file is used on a push: the workflow's own branch chose it.
    await runAction({ ...common, inputs, eventName: 'push', payload: pushPayload('0000000000000000000000000000000000000000', 'HEAD') });
    expect(connections).toBeGreaterThan(0);
    // In a pull request the base-url input (or the environment) is used as ever.
    const given = await runAction({ ...common, inputs: { ...inputs, 'base-url': emulator.url }, eventName: 'pull_request', payload: pullRequestPayload(3) });
    expect(given.outputs['exit-code']).toBe('2'); // a plan with changes
    const fromEnv = await runAction({ ...common, inputs, eventName: 'pull_request', payload: pullRequestPayload(3), env: { VORTEX_API_BASE_URL: emulator.url } });
    expect(fromEnv.outputs['exit-code']).toBe('2');
  });
});
