/**
 * A service that echoes a secret back: the live scope's name and metadata hold the API key
 * (as written, in base64, URL-encoded, with a markdown-special character), and a preset holds
 * the access token. Every output of the CLI and of the action (stdout, stderr, `--out` files,
 * the plan file under RUNNER_TEMP, GITHUB_OUTPUT, the job summary, the PR comment) shows `***`
 * instead; a saved plan so redacted is marked and `apply --plan` refuses it; `import` writes
 * no policy file holding the secret.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { emptyData, startEmulator, type Emulator } from '../../src/emulator/index.js';
import { escapeMarkdown } from '../../src/escape.js';
import { CLI_PATH, runCli, type CliResult } from '../support/cli.js';
import { startFakeGitHub, type FakeGitHub } from '../action/support/fake-github.js';
import { ACTION_PATH, pullRequestPayload, pushPayload, runAction, type ActionRun } from '../action/support/run-action.js';

const KEY = 'sk_live_Echoed*Key_5fd21c9';
const TOKEN = 'tok_Echoed_Token_88a3e1f0';

/** The shapes a reader would recognize: as written, JSON- and markdown-escaped, URL-encoded, base64. */
function shapes(secret: string): string[] {
  const base64 = [0, 1, 2].map((shift) => Buffer.from('x'.repeat(shift) + secret).toString('base64').slice(shift === 0 ? 0 : 4, -4));
  return [secret, escapeMarkdown(secret), JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret), ...base64];
}
const FORBIDDEN = [...shapes(KEY), ...shapes(TOKEN)];

function leaksIn(where: string, text: string): string[] {
  return FORBIDDEN.filter((form) => text.toLowerCase().includes(form.toLowerCase())).map((form) => `${where} contains ${JSON.stringify(form)}`);
}

const POLICY = 'scope: eng\nscopeType: team\nscopeName: Engineering\ncomponentId: cmp_echo\nmetadata: {owner: eng}\ndomains: [acme.com, acme.org]\n';

let dir: string;
let emulator: Emulator;

/** The live scope as an echoing service shows it: the key in its name and, in three encodings, in its metadata. */
async function echoTheKey(): Promise<void> {
  const body = {
    domains: ['acme.com'],
    scope: 'eng',
    scopeType: 'team',
    componentId: 'cmp_echo',
    scopeName: `Engineering ${KEY}`,
    metadata: { key: KEY, basic: Buffer.from(`user:${KEY}`).toString('base64'), url: `https://x.example/?k=${encodeURIComponent(KEY)}` },
  };
  const response = await fetch(`${emulator.url}/api/v1/invitations/autojoin`, {
    method: 'POST',
    headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
}

beforeAll(async () => {
  for (const file of [CLI_PATH, ACTION_PATH]) if (!existsSync(file)) throw new Error(`${file} is missing: run node scripts/build.mjs`);
  dir = await mkdtemp(path.join(os.tmpdir(), 'autojoin-echo-'));
  await mkdir(path.join(dir, 'policies'));
  await writeFile(path.join(dir, 'policies/eng.autojoin.yaml'), POLICY);
  const data = emptyData();
  data.emailPresets.push({ id: 'ep-echo', name: `Echo ${TOKEN}`, subject: Buffer.from(TOKEN).toString('base64'), locale: 'en' });
  emulator = await startEmulator({ port: 0, data, apiKey: KEY, accessToken: TOKEN });
});

afterAll(async () => {
  await emulator.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the CLI, against a service that echoes the key', () => {
  const env = (): Record<string, string> => ({ AUTOJOIN_BASE_URL: emulator.url, AUTOJOIN_API_KEY: KEY, AUTOJOIN_ACCESS_TOKEN: TOKEN });
  const cli = (args: string[]): Promise<CliResult> => runCli(args, { cwd: dir, env: env() });
  const leaks = (label: string, result: CliResult): string[] => [...leaksIn(`stdout of ${label}`, result.stdout), ...leaksIn(`stderr of ${label}`, result.stderr)];

  beforeEach(echoTheKey);

  it('plan in every format, and --out: *** in place of the key, the saved plan marked redacted', async () => {
    const found: string[] = [];
    for (const format of ['text', 'markdown', 'json']) {
      const plan = await cli(['plan', 'policies', '--format', format, '--out', `plan-${format}.json`]);
      expect(plan.code, plan.stderr).toBe(0);
      // Markdown shows the marker escaped (`&#42;&#42;&#42;`): the value is redacted whole, before it is escaped and cut.
      expect(plan.stdout).toMatch(/\*\*\*|&#42;&#42;&#42;/u);
      expect(plan.stderr).toContain('warning: the service shows a secret of this run in its answers (team/eng)');
      found.push(...leaks(`plan --format ${format}`, plan), ...leaksIn(`plan-${format}.json`, await readFile(path.join(dir, `plan-${format}.json`), 'utf8')));
    }
    expect(found).toEqual([]);
    const saved = JSON.parse(await readFile(path.join(dir, 'plan-json.json'), 'utf8')) as { redacted?: string[]; changes: { fieldChanges?: { before: unknown }[] }[] };
    expect(saved.redacted).toEqual(['team/eng']);
    expect(saved.changes[0]?.fieldChanges?.[0]?.before).toBe('Engineering ***');
  });

  it('apply --plan refuses a redacted plan: exit 1, nothing written', async () => {
    expect((await cli(['plan', 'policies', '--out', 'redacted.json'])).code).toBe(0);
    const before = emulator.requests.length;
    const apply = await cli(['apply', '--plan', 'redacted.json', '--yes']);
    expect(apply.code, apply.stderr).toBe(1);
    expect(apply.stderr).toMatch(/error: the saved plan shows \*\*\* where the service showed a secret of this run \(in team\/eng\).*nothing was written/u);
    expect(emulator.requests.slice(before).filter((request) => request.method !== 'GET')).toEqual([]);
    expect(leaks('apply --plan', apply)).toEqual([]);
  });

  it('import refuses to write a policy file from a live state that holds the key', async () => {
    // Import writes only scopes no policy file declares: the estate's file steps aside meanwhile.
    await rename(path.join(dir, 'policies'), `${dir}-policies-away`);
    try {
      for (const out of ['imported', '-']) {
        const imported = await cli(['import', '--scope', 'team/eng', '--out', out, '--component-id', 'cmp_echo']);
        expect(imported.code, imported.stderr).toBe(1);
        expect(imported.stderr).toContain('the service shows a secret of this run in the name or metadata of team/eng');
        expect(imported.stdout).toBe('');
        expect(leaks(`import --out ${out}`, imported)).toEqual([]);
      }
      expect(existsSync(path.join(dir, 'imported'))).toBe(false);
    } finally {
      await rename(`${dir}-policies-away`, path.join(dir, 'policies'));
    }
  });

  it('presets: the token a preset echoes is hidden in the JSON printed', async () => {
    const presets = await cli(['presets', 'email', 'list']);
    expect(presets.code, presets.stderr).toBe(0);
    expect(JSON.parse(presets.stdout)).toContainEqual({ id: 'ep-echo', name: 'Echo ***', subject: '***', locale: 'en' });
    expect(leaks('presets email list', presets)).toEqual([]);
  });

  it('VORTEX_API_KEY is a secret too, whether or not it is the key in use', async () => {
    const vortex = 'vx_sdk_key_Other_0a1b2c3d4e';
    const response = await fetch(`${emulator.url}/api/v1/invitations/autojoin`, {
      method: 'POST',
      headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ domains: ['acme.com'], scope: 'eng', scopeType: 'team', componentId: 'cmp_echo', scopeName: `Engineering ${vortex}` }),
    });
    expect(response.status).toBe(200);
    const plan = await runCli(['plan', 'policies', '--format', 'json'], { cwd: dir, env: { ...env(), VORTEX_API_KEY: vortex } });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('Engineering ***');
    expect(plan.stdout + plan.stderr).not.toContain(vortex);
  });

  it('apply from the files, text and JSON: the plan shown and the report hide the key; the write fixes the name', async () => {
    for (const format of ['json', 'text']) {
      await echoTheKey();
      const apply = await cli(['apply', 'policies', '--yes', '--format', format]);
      expect(apply.code, apply.stderr).toBe(0);
      expect(apply.stdout + apply.stderr).toContain('Engineering ***');
      expect(leaks(`apply --format ${format}`, apply)).toEqual([]);
    }
    expect(emulator.data().scopes['team/eng' as never]).toMatchObject({ scopeName: 'Engineering' });
  });
});

describe('the action, against a service that echoes the key', () => {
  let workspace: string;
  let github: FakeGitHub;

  beforeAll(async () => {
    // A directory of its own: under the CLI's, its policy file would be one more the CLI's runs
    // find (import refuses a declared scope), whichever describe block runs first.
    workspace = await mkdtemp(path.join(os.tmpdir(), 'autojoin-echo-workspace-'));
    await mkdir(path.join(workspace, 'policies'), { recursive: true });
    await writeFile(path.join(workspace, 'policies/eng.autojoin.yaml'), POLICY);
    github = await startFakeGitHub('acme', 'policies', TOKEN);
  });
  afterAll(async () => {
    await github.close();
    await rm(workspace, { recursive: true, force: true });
  });

  function leaksOf(label: string, run: ActionRun): string[] {
    // `::add-mask::` lines are the runner's own masking: the one place a secret is meant to be.
    const stdout = run.stdout.split('\n').filter((line) => !line.startsWith('::add-mask::')).join('\n');
    return [
      ...leaksIn(`stdout of ${label}`, stdout),
      ...leaksIn(`stderr of ${label}`, run.stderr),
      ...leaksIn(`GITHUB_OUTPUT of ${label}`, run.outputFile),
      ...leaksIn(`job summary of ${label}`, run.summary),
      ...leaksIn(`plan file of ${label}`, run.planJson ?? ''),
    ];
  }

  const action = (command: string, eventName: string, payload: unknown): Promise<ActionRun> =>
    runAction({
      inputs: { command, 'base-url': emulator.url, 'api-key': KEY, 'github-token': TOKEN, path: 'policies' },
      workspace,
      eventName,
      payload,
      apiUrl: github.url,
      env: { AUTOJOIN_ACCESS_TOKEN: TOKEN },
    });

  it('plan in a pull request, apply on push: no form of the key in any channel, file or comment', async () => {
    await echoTheKey();
    const plan = await action('plan', 'pull_request', pullRequestPayload(7));
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.summary).toMatch(/Engineering (\*\*\*|&#42;&#42;&#42;)/u);
    expect(JSON.parse(plan.planJson ?? '{}')).toMatchObject({ redacted: ['team/eng'] });
    expect(github.comments.at(-1)?.body).toMatch(/Engineering (\*\*\*|&#42;&#42;&#42;)/u);
    const apply = await action('apply', 'push', pushPayload('c'.repeat(40), 'd'.repeat(40)));
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    const found = [...leaksOf('plan', plan), ...leaksOf('apply', apply)];
    for (const request of github.requests) found.push(...leaksIn(`fake GitHub ${request.method} ${request.url}`, `${request.url}\n${request.body}`));
    expect(found).toEqual([]);
  });
});
