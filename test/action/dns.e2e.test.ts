/**
 * The DNS check in the action, as the runner runs it (`node dist/action.js`, INPUT_* variables):
 * findings are annotations at the domain's entry, and an error stops the plan before the live read.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { emptyData, startEmulator, type Emulator } from '../../src/emulator/index.js';
import { startDnsFixture, type DnsFixture } from '../support/dns.js';
import { pushPayload, runAction, type ActionRun } from './support/run-action.js';

const API_KEY = 'ak-action-dns-test-4e7b';
let fixture: DnsFixture;
let emulator: Emulator;
let workspace: string;

beforeAll(async () => {
  fixture = await startDnsFixture();
});
afterAll(async () => {
  await fixture.stop();
});
beforeEach(async () => {
  emulator = await startEmulator({ port: 0, data: emptyData(), apiKey: API_KEY });
  workspace = await mkdtemp(join(tmpdir(), 'autojoin-action-dns-'));
});
afterEach(async () => {
  await Promise.all([emulator.close(), rm(workspace, { recursive: true, force: true })]);
});

async function files(entries: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(entries)) {
    await mkdir(dirname(join(workspace, path)), { recursive: true });
    await writeFile(join(workspace, path), text);
  }
}

function action(inputs: Record<string, string>): Promise<ActionRun> {
  return runAction({
    inputs: { 'base-url': emulator.url, 'api-key': API_KEY, path: 'policies', comment: 'false', ...inputs },
    workspace,
    eventName: 'push',
    payload: pushPayload('a'.repeat(40), 'b'.repeat(40)),
    apiUrl: 'http://127.0.0.1:9',
  });
}

const ENG = 'scope: eng\nscopeType: team\ncomponentId: cmp_1\ndomains:\n  - good.test\n  - nomail.test\n';
const BAD = 'scope: ops\nscopeType: team\ncomponentId: cmp_1\ndomains:\n  - nx.test\n';

describe('the action with dns: true', () => {
  it('validate annotates each finding at its entry', async () => {
    await files({ 'policies/eng.autojoin.yaml': ENG, 'policies/ops.autojoin.yaml': BAD });
    const result = await action({ command: 'validate', dns: 'true', 'dns-servers': fixture.server });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^::warning title=autojoin-sync%3A dns-no-mail,file=policies\/eng\.autojoin\.yaml,line=6,col=5::nomail\.test has no MX/m);
    expect(result.stdout).toMatch(/^::error title=autojoin-sync%3A dns-nxdomain,file=policies\/ops\.autojoin\.yaml,line=5,col=5::nx\.test does not exist in DNS/m);
  });

  it('plan stops before the live read on an error, and goes on with warnings', async () => {
    await files({ 'policies/eng.autojoin.yaml': ENG, 'policies/ops.autojoin.yaml': BAD });
    const stopped = await action({ command: 'plan', dns: 'true', 'dns-servers': fixture.server });
    expect(stopped.outputs['exit-code']).toBe('1');
    expect(stopped.stdout).toMatch(/^::error title=autojoin-sync%3A dns-nxdomain,file=policies\/ops\.autojoin\.yaml,line=5,col=5::/m);
    expect(emulator.requests).toHaveLength(0);
    await rm(join(workspace, 'policies/ops.autojoin.yaml'));
    const planned = await action({ command: 'plan', dns: 'true', 'dns-servers': fixture.server });
    expect(planned.outputs, planned.stdout).toMatchObject({ 'exit-code': '2', 'has-changes': 'true' });
    expect(planned.stdout).toMatch(/^::warning title=autojoin-sync%3A dns-no-mail,file=policies\/eng\.autojoin\.yaml,line=6,col=5::/m);
  });

  it('without the dns input (and no dns.check) nothing is looked up', async () => {
    await files({ 'policies/ops.autojoin.yaml': BAD });
    const result = await action({ command: 'validate', 'dns-servers': '' });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('dns-nxdomain');
  });
});
