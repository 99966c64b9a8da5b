/**
 * The sticky plan comment is the one this action's identity wrote, never one the pull request's
 * author can edit. The author posts the hidden marker first; the action leaves that comment as it
 * is and writes its own (as `github-actions[bot]` with GITHUB_TOKEN; as the login `comment-author`
 * names with an App's or a personal token). The fake GitHub API answers as GitHub does (comments
 * carry `user` and `performed_via_github_app`; `GET /user` is refused for an integration token),
 * and the action never asks `GET /user`.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyData, startEmulator, type Emulator } from '../../src/emulator/index.js';
import { startFakeGitHub, type FakeGitHub, type FakeIdentity } from './support/fake-github.js';
import { pullRequestPayload, runAction, type ActionRun } from './support/run-action.js';

const KEY = 'sk_sticky_author_key_1';
const TOKEN = 'ghs_sticky_author_token';
const MARKER = '<!-- autojoin-sync:plan path=policies -->';
const PR = 9;

let workspace: string;
let emulator: Emulator;

beforeAll(async () => {
  workspace = await mkdtemp(path.join(os.tmpdir(), 'autojoin-sticky-'));
  await mkdir(path.join(workspace, 'policies'));
  await writeFile(path.join(workspace, 'policies/eng.autojoin.yaml'), 'scope: eng\nscopeType: team\ncomponentId: cmp_sticky\ndomains: [acme.com]\n');
  emulator = await startEmulator({ port: 0, data: emptyData(), apiKey: KEY });
});

afterAll(async () => {
  await emulator.close();
  await rm(workspace, { recursive: true, force: true });
});

async function withGitHub(identity: FakeIdentity | undefined, test: (github: FakeGitHub) => Promise<void>): Promise<void> {
  const github = await startFakeGitHub('acme', 'policies', TOKEN, identity);
  try {
    await test(github);
    expect(github.requests.filter((request) => request.url.startsWith('/user'))).toEqual([]);
  } finally {
    await github.close();
  }
}

function plan(github: FakeGitHub, inputs: Record<string, string> = {}): Promise<ActionRun> {
  return runAction({
    inputs: { command: 'plan', 'base-url': emulator.url, 'api-key': KEY, 'github-token': TOKEN, path: 'policies', ...inputs },
    workspace,
    eventName: 'pull_request',
    payload: pullRequestPayload(PR),
    apiUrl: github.url,
  });
}

const PLANTED = `Looks fine to me\n${MARKER}`;

describe('the sticky comment is the one this action wrote', () => {
  it("GITHUB_TOKEN: the PR author's comment carrying the marker is left alone; the action writes and then updates its own", async () => {
    await withGitHub(undefined, async (github) => {
      const planted = github.seedComment(PR, PLANTED, 'mallory');
      const first = await plan(github);
      expect(first.code, first.stdout + first.stderr).toBe(0);
      expect(planted.body).toBe(PLANTED);
      const ours = github.comments.filter((comment) => comment.user.login === 'github-actions[bot]' && comment.body.includes(MARKER));
      expect(ours).toHaveLength(1);
      const second = await plan(github);
      expect(second.code, second.stdout + second.stderr).toBe(0);
      expect(github.comments.filter((comment) => comment.body.includes(MARKER))).toHaveLength(2);
      expect(github.requests.filter((request) => request.method === 'PATCH').map((request) => request.url)).toEqual([`/repos/acme/policies/issues/comments/${ours[0]?.id ?? 0}`]);
      expect(planted.body).toBe(PLANTED);
    });
  });

  it('an App token: comment-author names the app; its comment is found, a github-actions[bot] or user comment is not', async () => {
    await withGitHub({ login: 'autojoin-app[bot]', app: 'autojoin-app' }, async (github) => {
      const planted = github.seedComment(PR, PLANTED, 'mallory');
      const bot = github.seedComment(PR, `old\n${MARKER}`, 'github-actions[bot]');
      const mine = github.seedComment(PR, `earlier plan\n${MARKER}`, 'autojoin-app[bot]');
      const run = await plan(github, { 'comment-author': 'autojoin-app[bot]' });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(mine.body).toContain('autojoin-sync plan');
      expect(planted.body).toBe(PLANTED);
      expect(bot.body).toBe(`old\n${MARKER}`);
    });
  });
});
