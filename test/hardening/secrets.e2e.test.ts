/**
 * No secret in any byte the program writes. Every command (and the GitHub Action) runs with a
 * recognizable API key and access token; afterwards stdout, stderr, every file under the
 * project directory (plan files, imported policies, the emulator's data file, GITHUB_OUTPUT,
 * the job summary) and every request body the fake GitHub received are scanned for either
 * secret, plain, base64 (at each of the three alignments) and hex.
 */
import { secretForms } from '../../src/redact.js';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyData, startEmulator, type Emulator } from '../../src/emulator/index.js';
import { CLI_PATH, runCli, type CliResult, spawnCli, stop } from '../support/cli.js';
import { startFakeGitHub, type FakeGitHub } from '../action/support/fake-github.js';
import { ACTION_PATH, pullRequestPayload, pushPayload, runAction, type ActionRun } from '../action/support/run-action.js';


const KEY = 'sk_live_SECRETKEY_123456';
const TOKEN = 'tok_SECRETTOKEN_987654';

/** Every way a secret could leak in text: itself, base64 at each alignment, hex. */
function encodings(secret: string): string[] {
  const forms = [secret, Buffer.from(secret).toString('hex')];
  for (let shift = 0; shift < 3; shift++) {
    const encoded = Buffer.from('x'.repeat(shift) + secret).toString('base64');
    // Keep only the characters that depend on the secret alone, not on its neighbours.
    forms.push(encoded.slice(shift === 0 ? 0 : 4, -4));
  }
  return forms;
}
const FORBIDDEN = [...encodings(KEY), ...encodings(TOKEN)];

/** Everything written, by where it was written, for one final scan (and a report naming the place). */
const written = new Map<string, string>();
function record(where: string, text: string): void {
  written.set(where, (written.get(where) ?? '') + text);
}

function leaks(): string[] {
  const found: string[] = [];
  for (const [where, text] of written) {
    for (const form of FORBIDDEN) if (text.includes(form)) found.push(`${where} contains ${JSON.stringify(form)}`);
  }
  return found;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

const POLICY = (scope: string, domains: string[]): string =>
  `scope: ${scope}\nscopeType: team\ncomponentId: cmp_secret\ndomains:\n${[...domains].sort().map((d) => `  - ${d}`).join('\n')}\n`;

let dir: string;
let emulator: Emulator;
let github: FakeGitHub;

beforeAll(async () => {
  for (const file of [CLI_PATH, ACTION_PATH]) if (!existsSync(file)) throw new Error(`${file} is missing: run node scripts/build.mjs`);
  dir = await mkdtemp(path.join(os.tmpdir(), 'autojoin-secrets-'));
  await mkdir(path.join(dir, 'policies'));
  await writeFile(path.join(dir, 'policies/eng.autojoin.yaml'), POLICY('acme-eng', ['acme.com', 'acme.co.uk']));
  await writeFile(path.join(dir, 'policies/ops.autojoin.yaml'), POLICY('acme-ops', ['acme-ops.com']));
  emulator = await startEmulator({ port: 0, data: emptyData(), apiKey: KEY, accessToken: TOKEN, dataFile: path.join(dir, 'emulator-state.json') });
  github = await startFakeGitHub('acme', 'policies', TOKEN);
});

afterAll(async () => {
  await Promise.all([emulator.close(), github.close()]);
  await rm(dir, { recursive: true, force: true });
});

async function cli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const result = await runCli(args, {
    cwd: dir,
    env: { AUTOJOIN_BASE_URL: emulator.url, AUTOJOIN_API_KEY: KEY, AUTOJOIN_ACCESS_TOKEN: TOKEN, ...env },
  });
  record(`stdout of ${args.join(' ')}`, result.stdout);
  record(`stderr of ${args.join(' ')}`, result.stderr);
  return result;
}

// The last block scans every file the others wrote, so the blocks keep their order.
describe('secrets', { shuffle: false }, () => {
describe('secrets never appear in what the CLI writes', () => {
  it('runs every command with the key and token set, with the expected outcomes', async () => {
    expect((await cli(['validate', 'policies'])).code).toBe(0);
    expect((await cli(['fmt', '--check', 'policies'])).code).toBe(0);
    for (const format of ['text', 'markdown', 'json']) {
      const plan = await cli(['plan', 'policies', '--format', format, '--out', `plan-${format}.json`, '--detailed-exitcode']);
      expect(plan.code, plan.stderr).toBe(2);
    }
    const saved = await cli(['apply', '--plan', 'plan-json.json', '--yes']);
    expect(saved.code, saved.stderr).toBe(0);
    await writeFile(path.join(dir, 'policies/ops.autojoin.yaml'), POLICY('acme-ops', ['acme-ops.com', 'acme-ops.de']));
    expect((await cli(['apply', 'policies', '--yes'])).code).toBe(0);
    const stale = await cli(['apply', '--plan', 'plan-text.json', '--yes']);
    expect(stale.code, stale.stderr).toBe(4);
    // import refuses scopes a policy file under the project declares: the files step outside while it writes its own.
    await rename(path.join(dir, 'policies'), `${dir}-policies-aside`);
    const imported = await cli(['import', '--scope', 'team/acme-eng', '--scope', 'team/acme-ops', '--out', 'imported', '--component-id', 'cmp_secret']);
    expect(imported.code, imported.stderr).toBe(0);
    expect((await cli(['plan', 'imported', '--detailed-exitcode'])).code).toBe(0);
    await rename(`${dir}-policies-aside`, path.join(dir, 'policies'));
    const email = await cli(['presets', 'email', 'list']);
    expect(email.code, email.stderr).toBe(0);
    expect(JSON.parse(email.stdout)).toEqual(emulator.data().emailPresets);
    const style = await cli(['presets', 'form-style', 'get', 'fsp-default']);
    expect(style.code, style.stderr).toBe(0);
    expect(JSON.parse(style.stdout)).toMatchObject({ id: 'fsp-default' });
    const helps = await Promise.all([[], ['validate'], ['fmt'], ['plan'], ['apply'], ['import'], ['presets'], ['emulator']].map((command) => cli([...command, '--help'])));
    expect(helps.map((help) => help.code)).toEqual(helps.map(() => 0));
    expect(leaks()).toEqual([]);
  });

  it('keeps them out of failures: a wrong key, a wrong token, an unknown preset', async () => {
    const other = await startEmulator({ port: 0, data: emptyData(), apiKey: 'the-right-key', accessToken: 'the-right-token' });
    try {
      const plan = await cli(['plan', 'policies'], { AUTOJOIN_BASE_URL: other.url });
      expect(plan.code).toBe(1);
      expect(plan.stderr).toMatch(/401/);
      expect(plan.stderr).toContain('AUTOJOIN_API_KEY');
      const apply = await cli(['apply', 'policies', '--yes'], { AUTOJOIN_BASE_URL: other.url });
      expect(apply.code).toBe(1);
      const presets = await cli(['presets', 'email', 'list'], { AUTOJOIN_BASE_URL: other.url });
      expect(presets.code).toBe(1);
      expect(presets.stderr).toContain('AUTOJOIN_ACCESS_TOKEN');
    } finally {
      await other.close();
    }
    const missing = await cli(['presets', 'form-style', 'get', 'no-such-preset']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/404/);
    expect(leaks()).toEqual([]);
  });

  it('keeps them out of the argument errors it echoes: a secret pasted as a flag value or a command is shown as ***', async () => {
    const flag = await cli(['plan', 'policies', '--concurrency', KEY]);
    expect(flag.code).toBe(1);
    expect(flag.stderr).toContain("argument '***' is invalid");
    const command = await cli([TOKEN]);
    expect(command.code).toBe(1);
    expect(command.stderr).toContain("unknown command '***'");
    expect(leaks()).toEqual([]);
  });

  it('refuses a policy file that holds the key or the token: exit 1 at file:line:col, no plan, nothing sent', async () => {
    // Outside `dir`: the last block scans every file there, and this policy holds both secrets.
    const elsewhere = await mkdtemp(path.join(os.tmpdir(), 'autojoin-secret-policy-'));
    try {
      const leaky = `scope: leaky\nscopeType: team\nscopeName: Team ${KEY}\ncomponentId: cmp_secret\nmetadata: {note: "${TOKEN}"}\ndomains: [leaky.example]\n`;
      await writeFile(path.join(elsewhere, 'leaky.autojoin.yaml'), leaky);
      const before = emulator.requests.length;
      const env = { AUTOJOIN_BASE_URL: emulator.url, AUTOJOIN_API_KEY: KEY, AUTOJOIN_ACCESS_TOKEN: TOKEN };
      for (const args of [['validate', '.'], ['plan', '.', '--out', 'plan.json'], ['apply', '.', '--yes']]) {
        const result = await runCli(args, { cwd: elsewhere, env });
        record(`stdout of ${args.join(' ')} (leaky policy)`, result.stdout);
        record(`stderr of ${args.join(' ')} (leaky policy)`, result.stderr);
        expect(result.code, result.stderr).toBe(1);
        const shown = result.stdout + result.stderr;
        expect(shown).toContain('leaky.autojoin.yaml:3:17: error: holds the value of AUTOJOIN_API_KEY');
        expect(shown).toContain('leaky.autojoin.yaml:5:19: error: holds the value of AUTOJOIN_ACCESS_TOKEN');
      }
      expect(existsSync(path.join(elsewhere, 'plan.json'))).toBe(false);
      expect(emulator.requests.slice(before).filter((request) => request.method !== 'GET')).toEqual([]);
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
    expect(leaks()).toEqual([]);
  });

  it('keeps them out of the emulator command: its notices, its output and its data file', async () => {
    const dataFile = path.join(dir, 'emulator-cmd.json');
    const running = spawnCli(['emulator', '--port', '0', '--data', dataFile, '--seed-scopes', '2', '--seed-domains', '1'], {
      cwd: dir,
      env: { AUTOJOIN_API_KEY: KEY, AUTOJOIN_ACCESS_TOKEN: TOKEN },
    });
    const url = await new Promise<string>((resolve) => {
      running.child.stdout?.on('data', (chunk: string) => {
        const match = /listening on (\S+)/.exec(chunk);
        if (match) resolve(match[1] as string);
      });
    });
    const listing = await fetch(`${url}/api/v1/invitations/by-scope/team/scope-0001`, { headers: { 'x-api-key': KEY } });
    expect(listing.status).toBe(200);
    const sync = await fetch(`${url}/api/v1/invitations/autojoin`, {
      method: 'POST',
      headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ domains: ['acme.com'], scope: 'scope-0002', scopeType: 'team', componentId: 'c' }),
    });
    expect(sync.status).toBe(200);
    const refused = await fetch(`${url}/api/v1/customer-invitation-email-presets`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(refused.status).toBe(401);
    record('emulator 401 body', await refused.text());
    const result = await stop(running);
    expect(result.code).toBe(0);
    record('stdout of emulator', result.stdout);
    record('stderr of emulator', result.stderr);
    expect(result.stderr).toContain('accepting the x-api-key from AUTOJOIN_API_KEY');
    expect(leaks()).toEqual([]);
  });
});

describe('secrets never appear in what the action writes', () => {
  let workspace: string;
  const runs: ActionRun[] = [];

  beforeAll(async () => {
    workspace = path.join(dir, 'workspace');
    await mkdir(path.join(workspace, 'policies'), { recursive: true });
    await writeFile(path.join(workspace, 'policies/eng.autojoin.yaml'), POLICY('action-eng', ['actionco.com']));
    await writeFile(path.join(workspace, 'policies/bad.autojoin.yaml'), POLICY('action-bad', ['gmail.com']));
  });

  async function action(command: string, eventName: string, payload: unknown, files?: 'good', at = workspace): Promise<ActionRun> {
    if (files === 'good') await rm(path.join(at, 'policies/bad.autojoin.yaml'), { force: true });
    const run = await runAction({
      inputs: { command, 'base-url': emulator.url, 'api-key': KEY, 'github-token': TOKEN, path: 'policies' },
      workspace: at,
      eventName,
      payload,
      apiUrl: github.url,
      env: { AUTOJOIN_ACCESS_TOKEN: TOKEN },
    });
    runs.push(run);
    const label = `action ${command} (${eventName})`;
    // The runner hides a value only after this exact command, so it is the one allowed place for the key.
    // Issue 12: the action registers every form the redactor knows (case, base64, …) with the runner's masking.
    const masks = new Set([...secretForms(KEY), ...secretForms(TOKEN)].map((form) => `::add-mask::${form}`));
    record(`stdout of ${label}`, run.stdout.split('\n').filter((line) => !masks.has(line)).join('\n'));
    record(`stderr of ${label}`, run.stderr);
    record(`GITHUB_OUTPUT of ${label}`, run.outputFile);
    record(`GITHUB_STEP_SUMMARY of ${label}`, run.summary);
    record(`plan JSON of ${label}`, run.planJson ?? '');
    return run;
  }

  it('refuses a policy file that holds the api-key input, in validate and plan: an annotation at its line, no plan', async () => {
    // Outside `dir`, like the CLI's leaky policy: the last block scans every file there.
    const elsewhere = await mkdtemp(path.join(os.tmpdir(), 'autojoin-secret-workspace-'));
    try {
      await mkdir(path.join(elsewhere, 'policies'));
      await writeFile(path.join(elsewhere, 'policies/leaky.autojoin.yaml'), `scope: leaky\nscopeType: team\nscopeName: Team ${KEY}\ncomponentId: c\ndomains: [leaky.example]\n`);
      for (const command of ['validate', 'plan']) {
        const run = await action(command, 'pull_request', pullRequestPayload(3), undefined, elsewhere);
        expect(run.code, run.stdout).toBe(1);
        expect(run.stdout).toMatch(/::error title=autojoin-sync%3A secret-in-policy,file=policies\/leaky\.autojoin\.yaml,line=3,col=17::holds the value of AUTOJOIN_API_KEY/u);
        expect(run.planJson).toBeNull();
      }
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
    expect(leaks()).toEqual([]);
  });

  it('validate (with an error), plan in a pull request, apply on push: no secret anywhere', async () => {
    const invalid = await action('validate', 'pull_request', pullRequestPayload(3));
    expect(invalid.code).toBe(1);
    expect(invalid.stdout).toMatch(/^::error title=.*,file=policies\/bad\.autojoin\.yaml,line=5,col=5::gmail\.com is a webmail domain/m);
    const plan = await action('plan', 'pull_request', pullRequestPayload(3), 'good');
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.outputs['has-changes']).toBe('true');
    expect(github.comments.length).toBe(1);
    const apply = await action('apply', 'push', pushPayload('c'.repeat(40), 'd'.repeat(40)));
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(emulator.data().scopes['team/action-eng' as never]).toMatchObject({ autojoin: { domains: [{ domain: 'actionco.com' }] } });
    expect(runs.some((run) => run.stdout.includes(`::add-mask::${KEY}`))).toBe(true);

    expect(github.requests.length).toBeGreaterThan(0);
    for (const request of github.requests) record(`fake GitHub ${request.method} ${request.url}`, `${request.url}\n${request.body}`);
    expect(leaks()).toEqual([]);
  });
});

describe('secrets never appear in any file', () => {
  it('scans every file under the project directory (plans, imports, emulator state, workspace)', async () => {
    const files = await filesUnder(dir);
    const names = files.map((file) => path.relative(dir, file));
    expect(names).toEqual(expect.arrayContaining(['plan-text.json', 'plan-markdown.json', 'plan-json.json', 'emulator-state.json', 'emulator-cmd.json']));
    expect(names.some((name) => name.startsWith('imported/'))).toBe(true);
    for (const file of files) record(`file ${path.relative(dir, file)}`, await readFile(file, 'latin1'));
    expect(leaks()).toEqual([]);
  });
});
});
