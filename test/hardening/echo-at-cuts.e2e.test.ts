/**
 * A service that echoes the key at every offset around each cut the tool makes for display:
 * in live metadata (a value is shown cut at 200 characters in the text and markdown plans, the
 * PR comment and the job summary) and in an error body (the service's message is cut at 500
 * characters), each in five forms: as written, hex, percent-encoded byte by byte, split by a
 * zero-width space, and base64. No part of any form (eight characters or more) reaches any
 * channel: stdout in every format, stderr, the saved plan, the apply report, the PR comment,
 * the job summary, the annotations, GITHUB_OUTPUT and the plan file of the action.
 *
 * The redaction runs on whole values before any cut; the old build cut first and showed a
 * key that straddled the cut in part.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyData, startEmulator, type Emulator } from '../../src/emulator/index.js';
import { escapeControls } from '../../src/escape.js';
import { CLI_PATH, runCli, type CliResult } from '../support/cli.js';
import { startFakeGitHub, type FakeGitHub } from '../action/support/fake-github.js';
import { ACTION_PATH, pullRequestPayload, pushPayload, runAction, type ActionRun } from '../action/support/run-action.js';
import { leakCheck, secretForms } from './secret-forms.js';

const KEY = 'sk_live_Echoed*Key_5fd21c9';
const TOKEN = 'tok_Echoed_Token_88a3e1f0';
const FORMS = secretForms(KEY, 13);
/** Where the plan cuts a shown value (`{"k":"` comes first), and where the client cuts a service message. */
const VALUE_CUT = 199 - '{"k":"'.length;
const MESSAGE_CUT = 499;
const PART = 8;

/** Offsets of a form around `cut`: from wholly before it to wholly after it. */
function offsetsAround(cut: number, shownLength: number): number[] {
  const offsets: number[] = [];
  for (let at = Math.max(0, cut - shownLength - 2); at <= cut + 2; at += 1) offsets.push(at);
  return offsets;
}

interface Echo {
  scope: string;
  text: string;
}

/** One scope per form and offset; `kind` names its cut. */
function echoes(kind: 'm' | 'e'): Echo[] {
  const list: Echo[] = [];
  for (const [name, form] of Object.entries(FORMS)) {
    const shown = escapeControls(form).length;
    const cut = kind === 'm' ? VALUE_CUT : MESSAGE_CUT;
    for (const at of offsetsAround(cut, shown)) list.push({ scope: `${kind}-${name}-${at}`, text: `${'x'.repeat(at)}${form}${'y'.repeat(kind === 'm' ? 60 : 600)}` });
  }
  return list;
}
const METADATA = echoes('m');
const MESSAGES = new Map(echoes('e').map((echo) => [echo.scope, echo.text]));

const { leaksIn } = leakCheck(FORMS, PART);

let dir: string;
let emulator: Emulator;
let proxy: http.Server;
let proxyUrl: string;

/** In front of the emulator: a write of an `e-` scope is answered 400 with the key in the message. */
function startProxy(target: string): Promise<string> {
  proxy = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const scope = req.method === 'GET' ? undefined : (/"scope":"(e-[^"]+)"/u.exec(body.toString('utf8'))?.[1]);
      const message = scope === undefined ? undefined : MESSAGES.get(scope);
      if (message !== undefined) {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ message }));
        return;
      }
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => name !== 'host' && name !== 'content-length')) as Record<string, string>;
      void fetch(`${target}${req.url ?? '/'}`, { method: req.method, headers, body: req.method === 'GET' ? undefined : body }).then(async (answer) => {
        const text = await answer.text();
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(text);
      });
    });
  });
  return new Promise((resolve) => proxy.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(proxy.address() as AddressInfo).port}`)));
}

/** The live scopes as the echoing service shows them: the key in each `m-` scope's metadata. */
async function seed(): Promise<void> {
  for (const { scope, text } of METADATA) {
    const response = await fetch(`${emulator.url}/api/v1/invitations/autojoin`, {
      method: 'POST',
      headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ domains: ['acme.com'], scope, scopeType: 'team', componentId: 'cmp_echo', metadata: { k: text } }),
    });
    expect(response.status).toBe(200);
  }
}

function policyText(): string {
  const scopes = [...METADATA.map((echo) => echo.scope), ...MESSAGES.keys()];
  return scopes.map((scope) => `scope: ${scope}\nscopeType: team\ncomponentId: cmp_echo\nmetadata: {owner: eng}\ndomains: [acme.com]\n`).join('---\n');
}

beforeAll(async () => {
  for (const file of [CLI_PATH, ACTION_PATH]) if (!existsSync(file)) throw new Error(`${file} is missing: run node scripts/build.mjs`);
  dir = await mkdtemp(path.join(os.tmpdir(), 'autojoin-echo-cuts-'));
  await mkdir(path.join(dir, 'policies'));
  await writeFile(path.join(dir, 'policies/echo.autojoin.yaml'), policyText());
  emulator = await startEmulator({ port: 0, data: emptyData(), apiKey: KEY, accessToken: TOKEN });
  proxyUrl = await startProxy(emulator.url);
});

afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise((resolve) => proxy.close(resolve));
  await emulator.close();
  await rm(dir, { recursive: true, force: true });
});

describe('a key echoed at every offset around each cut, in five forms', () => {
  const env = { AUTOJOIN_BASE_URL: '', AUTOJOIN_API_KEY: KEY, AUTOJOIN_ACCESS_TOKEN: TOKEN };
  const cli = (args: string[]): Promise<CliResult> => runCli(args, { cwd: dir, env: { ...env, AUTOJOIN_BASE_URL: proxyUrl }, timeoutMs: 120_000 });
  const leaks = (label: string, result: CliResult): string[] => [...leaksIn(`stdout of ${label}`, result.stdout), ...leaksIn(`stderr of ${label}`, result.stderr)];

  it('the CLI: plan in every format and its saved plan, apply and its report in text and JSON', async () => {
    await seed();
    const found: string[] = [];
    for (const format of ['text', 'markdown', 'json']) {
      const plan = await cli(['plan', 'policies', '--format', format, '--out', `plan-${format}.json`]);
      expect(plan.code, plan.stderr).toBe(0);
      expect(plan.stdout).toContain('m-base64-');
      found.push(...leaks(`plan --format ${format}`, plan), ...leaksIn(`plan-${format}.json`, await readFile(path.join(dir, `plan-${format}.json`), 'utf8')));
    }
    for (const format of ['text', 'json']) {
      await seed();
      const apply = await cli(['apply', 'policies', '--yes', '--format', format]);
      expect(apply.code, apply.stderr).not.toBe(0);
      expect(apply.stdout + apply.stderr).toContain('e-base64-');
      expect(apply.stdout + apply.stderr).toContain('xxx***');
      found.push(...leaks(`apply --format ${format}`, apply));
    }
    expect(found).toEqual([]);
  }, 240_000);

  it('the action: plan in a pull request (comment, summary, outputs, plan file), apply on push (annotations)', async () => {
    const workspace = await mkdtemp(path.join(os.tmpdir(), 'autojoin-echo-cuts-workspace-'));
    const github: FakeGitHub = await startFakeGitHub('acme', 'policies', TOKEN);
    try {
      await mkdir(path.join(workspace, 'policies'));
      await writeFile(path.join(workspace, 'policies/echo.autojoin.yaml'), policyText());
      const action = (command: string, eventName: string, payload: unknown): Promise<ActionRun> =>
        runAction({
          inputs: { command, 'base-url': proxyUrl, 'api-key': KEY, 'github-token': TOKEN, path: 'policies' },
          workspace,
          eventName,
          payload,
          apiUrl: github.url,
          env: { AUTOJOIN_ACCESS_TOKEN: TOKEN },
        });
      const of = (label: string, run: ActionRun): string[] => {
        const stdout = run.stdout.split('\n').filter((line) => !line.startsWith('::add-mask::')).join('\n');
        return [
          ...leaksIn(`stdout (annotations) of ${label}`, stdout),
          ...leaksIn(`stderr of ${label}`, run.stderr),
          ...leaksIn(`GITHUB_OUTPUT of ${label}`, run.outputFile),
          ...leaksIn(`job summary of ${label}`, run.summary),
          ...leaksIn(`plan file of ${label}`, run.planJson ?? ''),
        ];
      };
      await seed();
      const plan = await action('plan', 'pull_request', pullRequestPayload(7));
      expect(plan.code, plan.stdout + plan.stderr).toBe(0);
      expect(github.comments.at(-1)?.body).toContain('m-base64-');
      await seed();
      const apply = await action('apply', 'push', pushPayload('c'.repeat(40), 'd'.repeat(40)));
      expect(apply.stdout).toContain('::error');
      expect(apply.stdout).toContain('e-base64-');
      const found = [...of('plan', plan), ...of('apply', apply)];
      for (const request of github.requests) found.push(...leaksIn(`fake GitHub ${request.method} ${request.url}`, request.body));
      expect(found).toEqual([]);
    } finally {
      await github.close();
      await rm(workspace, { recursive: true, force: true });
    }
  }, 240_000);
});
