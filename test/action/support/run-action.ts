/**
 * Runs the committed bundle dist/action.js the way the GitHub runner does: a separate
 * `node dist/action.js` process, inputs as INPUT_<NAME> variables (upper case, spaces as '_',
 * dashes kept), GITHUB_OUTPUT / GITHUB_STEP_SUMMARY files, and an event payload file.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ACTION_PATH = fileURLToPath(new URL('../../../dist/action.js', import.meta.url));
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface ActionRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** GITHUB_OUTPUT as written. */
  outputFile: string;
  /** GITHUB_OUTPUT parsed from its multiline form. */
  outputs: Record<string, string>;
  /** GITHUB_STEP_SUMMARY as written. */
  summary: string;
  /** The file the `plan-json` output names, read before RUNNER_TEMP is removed (null when none). */
  planJson: string | null;
  /** The file the `sarif-file` output names, read before RUNNER_TEMP is removed (null when none). */
  sarif: string | null;
}

export interface ActionRunOptions {
  /** action.yml input names to values, e.g. { command: 'plan', 'base-url': '…' }. */
  inputs: Record<string, string>;
  workspace: string;
  eventName: string;
  payload: unknown;
  apiUrl: string;
  env?: Record<string, string>;
}

/** Spawns `node dist/action.js` under the same Node as the test (process.execPath). */
export async function runAction(options: ActionRunOptions): Promise<ActionRun> {
  const temp = await mkdtemp(join(tmpdir(), 'autojoin-action-run-'));
  try {
    const files = { output: join(temp, 'output'), summary: join(temp, 'summary'), event: join(temp, 'event.json') };
    await Promise.all([writeFile(files.output, ''), writeFile(files.summary, ''), writeFile(files.event, JSON.stringify(options.payload))]);
    const result = await spawnAction(runnerEnv(options, files, temp), options.workspace);
    const outputFile = await readFile(files.output, 'utf8');
    const outputs = parseOutputs(outputFile);
    const planJson = outputs['plan-json'] ? await readFile(outputs['plan-json'], 'utf8') : null;
    const sarif = outputs['sarif-file'] ? await readFile(outputs['sarif-file'], 'utf8') : null;
    return { ...result, outputFile, outputs, summary: await readFile(files.summary, 'utf8'), planJson, sarif };
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

function runnerEnv(options: ActionRunOptions, files: Record<'output' | 'summary' | 'event', string>, temp: string): Record<string, string> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_EVENT_PATH: files.event,
    GITHUB_EVENT_NAME: options.eventName,
    GITHUB_REPOSITORY: 'acme/policies',
    GITHUB_API_URL: options.apiUrl,
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_RUN_ID: '4242',
    GITHUB_WORKSPACE: options.workspace,
    RUNNER_TEMP: temp,
    ...options.env,
  };
  for (const [name, value] of Object.entries(options.inputs)) env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value;
  return env;
}

function spawnAction(env: Record<string, string>, cwd: string): Promise<Pick<ActionRun, 'code' | 'stdout' | 'stderr'>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [ACTION_PATH], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * Parses GITHUB_OUTPUT; only the multiline form `name<<DELIM\nvalue\nDELIM` is accepted,
 * so a test fails if outputs were written any other way.
 */
export function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line === '') continue;
    const match = /^([^<]+)<<(ghadelimiter_[0-9a-f-]+)$/.exec(line);
    if (!match?.[1] || !match[2]) throw new Error(`GITHUB_OUTPUT line ${i + 1} is not in the multiline form: ${line}`);
    const end = lines.indexOf(match[2], i + 1);
    if (end < 0) throw new Error(`GITHUB_OUTPUT: no closing delimiter for ${match[1]}`);
    outputs[match[1]] = lines.slice(i + 1, end).join('\n');
    i = end;
  }
  return outputs;
}

/** A pull_request payload shaped like GitHub's (the fields the action and common tools read). */
export function pullRequestPayload(number: number): unknown {
  const repo = { id: 1, name: 'policies', full_name: 'acme/policies', owner: { login: 'acme', type: 'Organization' }, default_branch: 'main' };
  return {
    action: 'synchronize',
    number,
    pull_request: {
      id: 9000 + number,
      number,
      state: 'open',
      title: 'Add acme.dev to engineering',
      user: { login: 'octocat', type: 'User' },
      head: { ref: 'feature/autojoin', sha: 'a'.repeat(40), repo },
      base: { ref: 'main', sha: 'b'.repeat(40), repo },
      html_url: `https://github.com/acme/policies/pull/${number}`,
    },
    repository: repo,
    sender: { login: 'octocat', type: 'User' },
  };
}

/** A push payload shaped like GitHub's. */
export function pushPayload(before: string, after: string): unknown {
  return {
    ref: 'refs/heads/main',
    before,
    after,
    repository: { id: 1, name: 'policies', full_name: 'acme/policies', owner: { login: 'acme' }, default_branch: 'main' },
    pusher: { name: 'octocat' },
    head_commit: { id: after, message: 'Merge pull request #7' },
  };
}
