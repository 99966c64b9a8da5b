/**
 * What a policy file may not say, checked by the built CLI and the action as GitHub runs it: a
 * secret written so that the text does not show it (YAML escapes, base64, URL encoding), and a
 * scope type or id that mixes scripts (`teаm`, Cyrillic а). Each is an error at file:line:col;
 * nothing is planned or sent. TYPE/ID arguments are held to the same rule.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyData, startEmulator, type Emulator } from '../../src/emulator/index.js';
import { CLI_PATH, runCli } from '../support/cli.js';
import { ACTION_PATH, pullRequestPayload, runAction } from '../action/support/run-action.js';

const KEY = 'sk_live_PolicyText_c0ffee42';
const escaped = Array.from(KEY, (char) => `\\x${char.charCodeAt(0).toString(16)}`).join('');
const FILES = {
  'escaped.autojoin.yaml': `scope: escaped\nscopeType: team\nscopeName: "${escaped}"\ncomponentId: c\ndomains: [escaped.example]\n`,
  'base64.autojoin.yaml': `scope: b64\nscopeType: team\ncomponentId: c\nmetadata:\n  note: "${Buffer.from(KEY).toString('base64url')}"\ndomains: [b64.example]\n`,
  'lookalike.autojoin.yaml': 'scope: acme-eng\nscopeType: te\u0430m\ncomponentId: c\ndomains: [acme.example]\n',
};
const EXPECTED = [
  'base64.autojoin.yaml:5:10: error: holds the value of AUTOJOIN_API_KEY',
  'escaped.autojoin.yaml:3:12: error: holds the value of AUTOJOIN_API_KEY',
  'lookalike.autojoin.yaml:2:12: error: scopeType "teаm" (te\\u{430}m) mixes scripts (Latin and Cyrillic)',
];

let dir: string;
let emulator: Emulator;

beforeAll(async () => {
  for (const file of [CLI_PATH, ACTION_PATH]) if (!existsSync(file)) throw new Error(`${file} is missing: run node scripts/build.mjs`);
  dir = await mkdtemp(path.join(os.tmpdir(), 'autojoin-policy-text-'));
  await mkdir(path.join(dir, 'policies'));
  for (const [name, text] of Object.entries(FILES)) await writeFile(path.join(dir, 'policies', name), text);
  emulator = await startEmulator({ port: 0, data: emptyData(), apiKey: KEY });
});

afterAll(async () => {
  await emulator.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the CLI', () => {
  const env = (): Record<string, string> => ({ AUTOJOIN_BASE_URL: emulator.url, AUTOJOIN_API_KEY: KEY });

  it('validate and plan: an error at each file:line:col, exit 1, nothing sent, the secret nowhere', async () => {
    for (const args of [['validate', 'policies'], ['plan', 'policies', '--out', 'plan.json']]) {
      const result = await runCli(args, { cwd: dir, env: env() });
      expect(result.code, result.stderr).toBe(1);
      const shown = result.stdout + result.stderr;
      for (const line of EXPECTED) expect(shown).toContain(`policies/${line}`);
      expect(shown).not.toContain(KEY);
    }
    expect(existsSync(path.join(dir, 'plan.json'))).toBe(false);
    expect(emulator.requests.filter((request) => request.method !== 'GET')).toEqual([]);
  });

  it('import refuses a look-alike TYPE/ID in --scope and in --scopes-from, naming the line', async () => {
    const flag = await runCli(['import', '--scope', 'te\u0430m/acme-eng', '--out', '-', '--component-id', 'c'], { cwd: dir, env: env() });
    expect(flag.code).toBe(1);
    expect(flag.stderr).toContain('error: --scope: "teаm/acme-eng" is refused: its scopeType "teаm" (te\\u{430}m) mixes scripts (Latin and Cyrillic)');
    await writeFile(path.join(dir, 'scopes.txt'), 'team/acme-ops\nteam/\u0430cme-eng\n');
    const listed = await runCli(['import', '--scopes-from', 'scopes.txt', '--out', '-', '--component-id', 'c'], { cwd: dir, env: env() });
    expect(listed.code).toBe(1);
    expect(listed.stderr).toContain('error: scopes.txt:2: "team/аcme-eng" is refused: its scope "аcme-eng" (\\u{430}cme-eng) mixes scripts');
    expect(listed.stdout).toBe('');
  });
});

describe('the action', () => {
  it('validate in a pull request: an annotation at each place, the step fails, the secret nowhere', async () => {
    const run = await runAction({
      inputs: { command: 'validate', 'api-key': KEY, path: 'policies' },
      workspace: dir,
      eventName: 'pull_request',
      payload: pullRequestPayload(5),
      apiUrl: 'http://127.0.0.1:9',
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/::error title=autojoin-sync%3A secret-in-policy,file=policies\/escaped\.autojoin\.yaml,line=3,col=12::holds the value of AUTOJOIN_API_KEY/u);
    expect(run.stdout).toMatch(/::error title=autojoin-sync%3A secret-in-policy,file=policies\/base64\.autojoin\.yaml,line=5,col=10::/u);
    expect(run.stdout).toMatch(/::error title=autojoin-sync%3A homograph,file=policies\/lookalike\.autojoin\.yaml,line=2,col=12::scopeType "teаm"/u);
    const shown = run.stdout.split('\n').filter((line) => !line.startsWith('::add-mask::')).join('\n') + run.stderr + run.summary + run.outputFile;
    expect(shown).not.toContain(KEY);
  });
});
