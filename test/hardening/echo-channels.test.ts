/**
 * The echo-at-cuts suite, in-process and on every outbound channel (the spawned twin is
 * echo-at-cuts.e2e.test.ts). A service echoes the key, in five forms (as written, base64, hex,
 * percent-encoded byte by byte, split by a zero-width space), at every offset around each cut the
 * tool makes for display, from each echo source:
 *  - live metadata values (shown cut at 200 characters),
 *  - a marker's owner (another owner's `autojoin-sync.owner`: plan, apply's refusal, the
 *    refusal table, the deployment status),
 *  - a marker's commit (`autojoin-sync.commit`, shown cut to 12 characters),
 *  - error bodies, JSON and not (the service's message cut at 500 characters),
 *  - a 2xx answer that is not JSON (the parser's message once quoted its first characters).
 * No part of any form (eight characters or more) reaches any channel: the CLI's stdout in text,
 * JSON and markdown and its stderr; the action's log lines, annotations, failure, outputs, job
 * summary, plan file, the PR comment, the deployment and its status (every request body the fake
 * GitHub API received). The adopt pull request's body and the shown-value cuts are held in
 * outbound.test.ts; SARIF carries policy diagnostics only (no service data reaches it).
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { emptyData, startEmulator, type Emulator } from '../../src/emulator/index.js';
import { escapeControls } from '../../src/escape.js';
import { commitAll } from '../support/git.js';
import { runInProcess } from '../support/in-process.js';
import { startFakeGitHub, type FakeGitHub } from '../action/support/fake-github.js';
import { pullRequestPayload, pushPayload } from '../action/support/run-action.js';
import { LONG } from './support.js';
import { leakCheck, secretForms } from './secret-forms.js';

const core = await vi.hoisted(async () => (await import('../support/actions-core.js')).fakeActionsCore());
vi.mock('@actions/core', () => core);
const { run } = await import('../../src/action/main.js');

const KEY = 'sk_live_Channel*Key_7b21e0';
const TOKEN = 'ghs_Channel_Token_4c9d02';
const FORMS = secretForms(KEY, 13);
const PART = 8;
/** Where a shown metadata value is cut (`{"k":"` comes first), a shown owner, and a service message. */
const CUTS = { m: 199 - '{"k":"'.length, o: 199, e: 499, n: 499 } as const;

const { leaksIn } = leakCheck(FORMS, PART);

interface Echo {
  scope: string;
  text: string;
}

/**
 * Every offset with AUTOJOIN_LONG_TESTS=1 (CI); otherwise every fourth, and always the offsets where
 * the key starts or ends at the cut, one before and one after: the fast tier stays fast, CI sees all.
 */
function everyOffset(at: number, cut: number, shown: number): boolean {
  return LONG || at % 4 === 0 || [cut - shown, cut].some((edge) => Math.abs(at - edge) <= 1);
}

/** One scope per form and offset around the cut of `kind`. */
function echoes(kind: keyof typeof CUTS): Echo[] {
  const list: Echo[] = [];
  for (const [name, form] of Object.entries(FORMS)) {
    const shown = escapeControls(form).length;
    for (let at = Math.max(0, CUTS[kind] - shown - 2); at <= CUTS[kind] + 2; at += 1) {
      if (!everyOffset(at, CUTS[kind], shown)) continue;
      list.push({ scope: `${kind}-${name}-${at}`, text: `${'x'.repeat(at)}${form}${'y'.repeat(kind === 'e' || kind === 'n' ? 600 : 60)}` });
    }
  }
  return list;
}
/** The marker commit: each form whole, and each cut at 12 characters' every offset. */
const COMMITS: Echo[] = Object.entries(FORMS).flatMap(([name, form]) =>
  Array.from({ length: 12 }, (_, at) => at).filter((at) => everyOffset(at, 12, escapeControls(form).length)).map((at) => ({ scope: `c-${name}-${at}`, text: `${'0'.repeat(at)}${form}` })),
);

const SOURCES = { m: echoes('m'), o: echoes('o'), c: COMMITS, e: echoes('e'), n: echoes('n') };
const ERRORS = new Map([...SOURCES.e, ...SOURCES.n].map((echo) => [echo.scope, echo.text]));

let emulator: Emulator;
let proxy: http.Server;
let proxyUrl: string;
/** When set, every read is answered 200 with this text, not JSON. */
let plainAnswer: string | undefined;

/** In front of the emulator: writes of `e-` scopes answered 400 with the key in a JSON message, of `n-` scopes in a text body. */
function startProxy(target: () => string): Promise<string> {
  proxy = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.method === 'GET' && plainAnswer !== undefined) {
        res.writeHead(200, { 'content-type': 'text/plain' }).end(plainAnswer);
        return;
      }
      const scope = req.method === 'GET' ? undefined : (/"scope":"([en]-[^"]+)"/u.exec(body.toString('utf8'))?.[1]);
      const message = scope === undefined ? undefined : ERRORS.get(scope);
      if (message !== undefined && scope?.startsWith('e-')) {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ message }));
        return;
      }
      if (message !== undefined) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end(message);
        return;
      }
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => name !== 'host' && name !== 'content-length')) as Record<string, string>;
      void fetch(`${target()}${req.url ?? '/'}`, { method: req.method, headers, body: req.method === 'GET' ? undefined : body }).then(async (answer) => {
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(await answer.text());
      });
    });
  });
  return new Promise((resolve) => proxy.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(proxy.address() as AddressInfo).port}`)));
}

/** A fresh service holding the live side of `kinds`. */
async function service(kinds: (keyof typeof SOURCES)[]): Promise<void> {
  // The first call finds none yet.
  await (emulator as Emulator | undefined)?.close();
  emulator = await startEmulator({ port: 0, data: emptyData(), apiKey: KEY });
  for (const kind of kinds) {
    for (const { scope, text } of SOURCES[kind]) {
      const metadata =
        kind === 'm' ? { k: text } : kind === 'o' ? { 'autojoin-sync.owner': text } : kind === 'c' ? { 'autojoin-sync.owner': 'default', 'autojoin-sync.commit': text } : { k: 'v' };
      const response = await fetch(`${emulator.url}/api/v1/invitations/autojoin`, {
        method: 'POST',
        headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ domains: ['acme.com'], scope, scopeType: 'team', componentId: 'cmp_echo', metadata }),
      });
      expect(response.status).toBe(200);
    }
  }
}

/** A git repository declaring every scope of `kinds` (each with another domain, so each is a change). */
async function repository(kinds: (keyof typeof SOURCES)[]): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'autojoin-echo-channels-'));
  await mkdir(path.join(dir, 'policies'));
  const scopes = kinds.flatMap((kind) => SOURCES[kind].map((echo) => echo.scope));
  await writeFile(path.join(dir, 'policies/echo.autojoin.yaml'), scopes.map((scope) => `scope: ${scope}\nscopeType: team\ncomponentId: cmp_echo\nmetadata: {owner: eng}\ndomains: [acme.com, acme.dev]\n`).join('---\n'));
  commitAll(dir);
  return dir;
}

const dirs: string[] = [];
beforeAll(async () => {
  emulator = await startEmulator({ port: 0, data: emptyData(), apiKey: KEY });
  proxyUrl = await startProxy(() => emulator.url);
});

afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise((resolve) => proxy.close(resolve));
  await emulator.close();
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

beforeEach(() => {
  plainAnswer = undefined;
});

const cliEnv = { AUTOJOIN_BASE_URL: '', AUTOJOIN_API_KEY: KEY, AUTOJOIN_ACCESS_TOKEN: TOKEN };

async function cli(dir: string, ...args: string[]): Promise<{ code: number; out: string; label: string }> {
  const result = await runInProcess(args, { cwd: dir, env: { ...cliEnv, AUTOJOIN_BASE_URL: proxyUrl } });
  return { code: result.code ?? -1, out: `${result.stdout}\n${result.stderr}`, label: args.join(' ') };
}

interface ActionResult {
  found: string[];
  shown: string;
  github: FakeGitHub;
}

/** Runs the action's run() in-process, with a fake GitHub API; @returns the leaks on every channel. */
async function action(dir: string, inputs: Record<string, string>, event: { name: string; payload: unknown }): Promise<ActionResult> {
  vi.clearAllMocks();
  const github = await startFakeGitHub('acme', 'policies', TOKEN);
  const temp = path.join(dir, '.runner');
  await mkdir(temp, { recursive: true });
  const eventFile = path.join(temp, 'event.json');
  const summaryFile = path.join(temp, 'summary.md');
  await writeFile(eventFile, JSON.stringify(event.payload));
  await writeFile(summaryFile, '');
  const all: Record<string, string> = { 'base-url': proxyUrl, 'api-key': KEY, 'github-token': TOKEN, path: 'policies', ...inputs };
  core.getInput.mockImplementation((name) => all[name] ?? '');
  const env: Record<string, string> = {
    GITHUB_WORKSPACE: dir,
    RUNNER_TEMP: temp,
    GITHUB_EVENT_NAME: event.name,
    GITHUB_EVENT_PATH: eventFile,
    GITHUB_STEP_SUMMARY: summaryFile,
    GITHUB_REPOSITORY: 'acme/policies',
    GITHUB_API_URL: github.url,
    GITHUB_RUN_ID: '4242',
    GITHUB_SHA: 'c'.repeat(40),
    GITHUB_ACTION: 'echo-step',
    AUTOJOIN_ACCESS_TOKEN: TOKEN,
  };
  for (const name of ['AUTOJOIN_API_KEY', 'AUTOJOIN_BASE_URL', 'VORTEX_API_KEY', 'AUTOJOIN_LOG', 'AUTOJOIN_LISTING']) vi.stubEnv(name, undefined);
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  try {
    await run();
  } finally {
    vi.unstubAllEnvs();
  }
  const channels = { info: core.info, notice: core.notice, warning: core.warning, error: core.error, setFailed: core.setFailed, setOutput: core.setOutput, summary: core.summary.addRaw };
  const found: string[] = [];
  let shown = '';
  for (const [name, channel] of Object.entries(channels)) {
    const text = JSON.stringify(channel.mock.calls);
    shown += text;
    found.push(...leaksIn(`${name} of ${inputs.command}`, text));
  }
  const planJson = core.setOutput.mock.calls.find(([name]) => name === "plan-json")?.[1];
  if (planJson) found.push(...leaksIn('the plan file', await readFile(planJson, 'utf8').catch(() => '')));
  for (const request of github.requests) {
    shown += request.body;
    found.push(...leaksIn(`GitHub ${request.method} ${request.url}`, request.body));
  }
  await github.close();
  return { found, shown, github };
}

describe('a key echoed at every offset around each cut, in five forms, on every channel', () => {
  it('metadata values and marker commits: the CLI plan in text, JSON and markdown; the action plan in a pull request', async () => {
    await service(['m', 'c']);
    const dir = await repository(['m', 'c']);
    dirs.push(dir);
    const found: string[] = [];
    for (const format of ['text', 'json', 'markdown']) {
      const plan = await cli(dir, 'plan', 'policies', '--format', format);
      expect(plan.out, plan.out.slice(0, 3000)).toContain('m-base64-');
      expect(plan.out).toContain('c-split-');
      found.push(...leaksIn(plan.label, plan.out));
    }
    const text = await cli(dir, 'plan', 'policies');
    expect(text.out).toMatch(/Written from a commit this checkout does not contain/u);
    const plan = await action(dir, { command: 'plan' }, { name: 'pull_request', payload: pullRequestPayload(7) });
    expect(plan.github.comments.at(-1)?.body).toContain('m-base64-');
    expect(plan.github.comments.at(-1)?.body).toContain('Written from a commit this checkout does not contain');
    found.push(...plan.found);
    expect(found).toEqual([]);
  }, 240_000);

  it("marker owners: plan's and apply's refusal in text, JSON and markdown; the action's error comment, refusal, summary and deployment status", async () => {
    await service(['o']);
    const dir = await repository(['o']);
    dirs.push(dir);
    const found: string[] = [];
    for (const format of ['text', 'json', 'markdown']) {
      for (const args of [['plan', 'policies'], ['apply', 'policies', '--yes']]) {
        if (args[0] === 'apply' && format === 'markdown') continue;
        const refused = await cli(dir, ...args, '--format', format);
        expect(refused.code).not.toBe(0);
        expect(refused.out).toMatch(/another owner/u);
        found.push(...leaksIn(refused.label, refused.out));
      }
    }
    const plan = await action(dir, { command: 'plan' }, { name: 'pull_request', payload: pullRequestPayload(7) });
    expect(plan.github.comments.at(-1)?.body).toMatch(/another owner/u);
    found.push(...plan.found);
    const apply = await action(dir, { command: 'apply', 'deployment-environment': 'autojoin' }, { name: 'push', payload: pushPayload('d'.repeat(40), 'c'.repeat(40)) });
    expect(apply.github.deployments.statuses.at(-1)?.state).toBe('failure');
    expect(apply.github.deployments.statuses.at(-1)?.description).toMatch(/^refused: /u);
    found.push(...apply.found);
    expect(found).toEqual([]);
  }, 240_000);

  it("error bodies, JSON and text: apply's failures in text and JSON; the action's annotations, outputs and deployment status", async () => {
    await service(['e', 'n']);
    const dir = await repository(['e', 'n']);
    dirs.push(dir);
    const found: string[] = [];
    for (const format of ['text', 'json']) {
      await service(['e', 'n']);
      const apply = await cli(dir, 'apply', 'policies', '--yes', '--format', format);
      expect(apply.code).not.toBe(0);
      expect(apply.out).toContain('e-base64-');
      expect(apply.out).toContain('n-base64-');
      found.push(...leaksIn(apply.label, apply.out));
    }
    await service(['e', 'n']);
    const apply = await action(dir, { command: 'apply', 'deployment-environment': 'autojoin' }, { name: 'push', payload: pushPayload('d'.repeat(40), 'c'.repeat(40)) });
    expect(apply.shown).toContain('e-base64-');
    expect(apply.github.deployments.statuses.at(-1)?.state).toBe('failure');
    found.push(...apply.found);
    expect(found).toEqual([]);
  }, 240_000);

  it("a 2xx answer that is not JSON, starting with each form: plan and apply on every channel, the failure comment and the deployment status", async () => {
    await service([]);
    const dir = await repository(['m']);
    dirs.push(dir);
    const found: string[] = [];
    for (const [name, form] of Object.entries(FORMS)) {
      plainAnswer = `${form} is the key you sent`;
      for (const format of ['text', 'json']) {
        const plan = await cli(dir, 'plan', 'policies', '--format', format);
        expect(plan.code).toBe(1);
        expect(plan.out).toMatch(/not valid JSON \(status 200, text\/plain, \d+ bytes\)/u);
        found.push(...leaksIn(`${name}: ${plan.label}`, plan.out));
      }
      const plan = await action(dir, { command: 'plan' }, { name: 'pull_request', payload: pullRequestPayload(7) });
      expect(plan.github.comments.at(-1)?.body).toContain('No plan could be made');
      const apply = await action(dir, { command: 'apply', 'deployment-environment': 'autojoin' }, { name: 'push', payload: pushPayload('d'.repeat(40), 'c'.repeat(40)) });
      expect(apply.github.deployments.statuses.at(-1)?.description).toMatch(/^failed: /u);
      found.push(...plan.found.map((leak) => `${name}: ${leak}`), ...apply.found.map((leak) => `${name}: ${leak}`));
    }
    expect(found).toEqual([]);
  }, 240_000);
});
