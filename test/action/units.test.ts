/** The action's pure pieces: inputs, event payloads, the comment marker, pagination links, redaction. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commentMarker, nextPagePath, upsertComment } from '../../src/action/comment.js';
import { parseInputs, pullNumberOf } from '../../src/action/inputs.js';
import { createRedactor } from '../../src/redact.js';
import { startFakeGitHub, type FakeGitHub } from './support/fake-github.js';
import { pullRequestPayload } from './support/run-action.js';

const given = (values: Record<string, string>) => (name: string) => values[name] ?? '';

describe('parseInputs', () => {
  it('applies the defaults of action.yml', () => {
    expect(parseInputs(given({}))).toEqual({
      command: 'plan',
      paths: ['.'],
      baseUrl: undefined,
      apiKey: undefined,
      githubToken: undefined,
      comment: true,
      commentAuthor: 'github-actions[bot]',
      pruneFrom: undefined,
      prune: undefined,
      allowNoPolicies: false,
      maxRemovals: undefined,
      allowEmpty: false,
      concurrency: undefined,
      listing: undefined,
      detailedExitcode: false,
      dns: { dns: undefined, servers: [], serversFrom: 'input dns-servers', strict: false },
      takeOwnership: [],
      onlyExpired: false,
      allowBehind: [],
    });
  });

  it('parses the DNS check inputs: dns, dns-servers (lines or commas), dns-strict', () => {
    const inputs = parseInputs(given({ dns: 'true', 'dns-servers': '10.0.0.53, 10.0.0.54:5353\n[::1]:53\n', 'dns-strict': 'true' }));
    expect(inputs.dns).toEqual({ dns: true, servers: ['10.0.0.53', '10.0.0.54:5353', '[::1]:53'], serversFrom: 'input dns-servers', strict: true });
    expect(() => parseInputs(given({ dns: 'yes' }))).toThrow('input dns: "yes" is not a boolean');
  });

  it('parses every input', () => {
    const inputs = parseInputs(
      given({
        command: 'apply',
        path: 'teams\n  workspaces \n',
        'max-removals': '0',
        'allow-empty': 'True',
        concurrency: '4',
        listing: 'by-scope',
        comment: 'false',
        'detailed-exitcode': 'true',
        'prune-from': 'abc123',
        prune: 'false',
        'allow-no-policies': 'true',
        'take-ownership': 'team/a, org/b\n\n team/c ',
      }),
    );
    expect(inputs).toMatchObject({
      command: 'apply',
      paths: ['teams', 'workspaces'],
      maxRemovals: 0,
      allowEmpty: true,
      concurrency: 4,
      listing: 'by-scope',
      comment: false,
      detailedExitcode: true,
      pruneFrom: 'abc123',
      prune: false,
      allowNoPolicies: true,
      takeOwnership: ['team/a', 'org/b', 'team/c'],
    });
  });

  it.each([
    ['command', 'destroy', 'input command: "destroy" is not one of validate, plan, apply'],
    ['comment', 'yes', 'input comment: "yes" is not a boolean; use true or false'],
    ['prune', 'always', 'input prune: "always" is not a boolean; use true or false'],
    ['max-removals', '-1', 'input max-removals: "-1" is not a whole number >= 0'],
    ['concurrency', '0', 'input concurrency: "0" is not a whole number from 1 to 256'],
    ['listing', 'by-team', 'input listing: "by-team" is not one of by-group, by-scope'],
  ])('refuses %s: %s', (name, value, message) => {
    expect(() => parseInputs(given({ [name]: value }))).toThrow(message);
  });
});

describe('pullNumberOf', () => {
  it('reads pull_request and issue_comment-on-a-PR payloads only', () => {
    expect(pullNumberOf(pullRequestPayload(12))).toBe(12);
    expect(pullNumberOf({ issue: { number: 3, pull_request: { url: 'x' } } })).toBe(3);
    expect(pullNumberOf({ issue: { number: 3 } })).toBeUndefined();
    expect(pullNumberOf({ ref: 'refs/heads/main' })).toBeUndefined();
    expect(pullNumberOf(undefined)).toBeUndefined();
  });
});

describe('commentMarker', () => {
  it('is one per path', () => {
    expect(commentMarker('.')).toBe('<!-- autojoin-sync:plan -->');
    expect(commentMarker('./')).toBe('<!-- autojoin-sync:plan -->');
    expect(commentMarker('teams/')).toBe('<!-- autojoin-sync:plan path=teams -->');
    expect(commentMarker('a-->b')).toBe('<!-- autojoin-sync:plan path=ab -->');
  });
});

describe('nextPagePath', () => {
  it('follows rel="next" on the API origin, keeping a GHES path prefix', () => {
    const link = '<https://ghe.example/api/v3/repos/o/r/issues/1/comments?per_page=100&page=2>; rel="next", <…>; rel="last"';
    expect(nextPagePath(link, 'https://ghe.example/api/v3')).toBe('/repos/o/r/issues/1/comments?per_page=100&page=2');
  });

  it('never follows a link to another origin (the token would go with it)', () => {
    expect(nextPagePath('<https://evil.example/x?page=2>; rel="next"', 'https://api.github.com')).toBeUndefined();
    expect(nextPagePath('<https://api.github.com/x?page=9>; rel="last"', 'https://api.github.com')).toBeUndefined();
    expect(nextPagePath(null, 'https://api.github.com')).toBeUndefined();
  });
});

describe('upsertComment', () => {
  let github: FakeGitHub;
  beforeEach(async () => {
    github = await startFakeGitHub('acme', 'policies', 'tok-1234');
  });
  afterEach(() => github.close());

  it('creates, then updates the comment that carries the marker, leaving others alone', async () => {
    const target = { apiUrl: github.url, token: 'tok-1234', owner: 'acme', repo: 'policies', issueNumber: 5 };
    github.seed(5, 3);
    const other = await upsertComment(target, commentMarker('other'), `x\n${commentMarker('other')}`);
    const created = await upsertComment(target, commentMarker('.'), `one\n${commentMarker('.')}`);
    const updated = await upsertComment(target, commentMarker('.'), `two\n${commentMarker('.')}`);
    expect(created.action).toBe('created');
    expect(updated).toEqual({ action: 'updated', id: created.id });
    expect(github.comments.map((comment) => comment.body.split('\n')[0])).toEqual(['unrelated comment 0', 'unrelated comment 1', 'unrelated comment 2', 'x', 'two']);
    expect(other.id).not.toBe(created.id);
  });

  it('names the failed call and status, never the token', async () => {
    const target = { apiUrl: github.url, token: 'wrong-token', owner: 'acme', repo: 'policies', issueNumber: 5 };
    const error = await upsertComment(target, commentMarker('.'), 'x').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'GitHubApiError', status: 401, message: '[GET] /repos/acme/policies/issues/5/comments: 401 Bad credentials' });
  });
});

describe('redact', () => {
  it('replaces every occurrence of each secret', () => {
    expect(createRedactor(['abcd1234', undefined])('key=abcd1234 again abcd1234')).toBe('key=*** again ***');
  });
});
