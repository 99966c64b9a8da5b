/** The pieces of `command: adopt`: one pull request kept up to date, and the branch it comes from. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { upsertPullRequest } from '../../src/action/pull-request.js';
import { pullRequestBody } from '../../src/action/adopt-step.js';
import { ADOPT_BRANCH, pushAdoptBranch } from '../../src/commands/adopt-branch.js';
import { commitAll, git } from '../support/git.js';
import { tempDirOfTest } from '../support/temp.js';
import { startFakeGitHub, type FakeGitHub } from './support/fake-github.js';

describe('upsertPullRequest', () => {
  let github: FakeGitHub;
  beforeEach(async () => {
    github = await startFakeGitHub('acme', 'policies', 'tok-1234');
  });
  afterEach(() => github.close());

  it('opens one pull request from the branch, then updates it in place', async () => {
    const target = { apiUrl: github.url, token: 'tok-1234', owner: 'acme', repo: 'policies' };
    const spec = { head: ADOPT_BRANCH, base: 'main', title: 'adopt', body: 'one' };
    const created = await upsertPullRequest(target, spec);
    const updated = await upsertPullRequest(target, { ...spec, body: 'two' });
    expect(created.action).toBe('created');
    expect(updated).toEqual({ action: 'updated', number: created.number, url: created.url });
    expect(github.pulls).toHaveLength(1);
    expect(github.pulls[0]).toMatchObject({ head: ADOPT_BRANCH, base: 'main', body: 'two', state: 'open' });
    expect(github.requests.every((request) => request.authorization === 'Bearer tok-1234')).toBe(true);
  });
});

describe('pushAdoptBranch', () => {
  it('commits the edit on the adopt branch of a real remote and leaves the checkout where it was', () => {
    const remote = tempDirOfTest('adopt-remote-');
    git(remote, 'init', '-q', '--bare');
    const work = tempDirOfTest('adopt-work-');
    git(work, 'init', '-q', '-b', 'main');
    writeFileSync(join(work, 'a.autojoin.yaml'), 'domains: [a.com]\n');
    const start = commitAll(work);
    git(work, 'remote', 'add', 'origin', remote);
    git(work, 'push', '-q', 'origin', 'main');
    writeFileSync(join(work, 'a.autojoin.yaml'), 'domains: [a.com, b.com]\n');
    return pushAdoptBranch(work, ['a.autojoin.yaml'], 'Adopt outside changes').then((commit) => {
      expect(git(remote, 'rev-parse', `refs/heads/${ADOPT_BRANCH}`)).toBe(commit);
      expect(git(remote, 'show', `${ADOPT_BRANCH}:a.autojoin.yaml`)).toBe('domains: [a.com, b.com]');
      expect(git(remote, 'log', '-1', '--format=%an%n%P', ADOPT_BRANCH).split('\n')).toEqual(['github-actions[bot]', start]);
      expect(git(work, 'rev-parse', 'HEAD')).toBe(start);
      // Back on its branch, not on a detached HEAD.
      expect(git(work, 'symbolic-ref', '--short', 'HEAD')).toBe('main');
      expect(readFileSync(join(work, 'a.autojoin.yaml'), 'utf8')).toBe('domains: [a.com]\n');
    });
  });
});

describe("the adopt pull request's scopes not adopted", () => {
  it('words each reason once, naming the file from the repository root, as the plan does', () => {
    const source = { file: 'teams/eng/policies/eng.autojoin.yaml', line: 5, column: 1 };
    const refusal = { ...source, line: 9, column: 5, severity: 'error' as const, code: 'rule-allow', message: 'rule "eng domains only": elsewhere.example is not allowed' };
    const body = pullRequestBody([], [], [{ key: 'team/acme-eng', source }, { key: 'team/acme-platform', source, refusal }]);
    expect(body).toContain('**Not adopted**: `team/acme-eng`: `its metadata changed outside; metadata is not adopted (edit teams/eng/policies/eng.autojoin.yaml:5 by hand)`');
    expect(body).toContain(
      '**Not adopted**: `team/acme-platform`: `the file would not pass validate: teams/eng/policies/eng.autojoin.yaml:9:5: error: rule "eng domains only": elsewhere.example is not allowed; nothing was written for this scope`',
    );
  });
});
