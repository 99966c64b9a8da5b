/**
 * Security round 5, one case a finding (each fails on the code before it):
 *  - the one outbound step: every string of every body the action sends to GitHub passes the
 *    redactor in the GitHub client itself (src/action/github-api.ts), whatever the caller did;
 *  - the deployment status's description is redacted whole, then cut to GitHub's 140 characters;
 *  - redact whole, then cut: a marker's commit (the "written from a commit this checkout does not
 *    contain" line, the not-managed entry, apply's error, the refusal table), the action's error
 *    comment (4,000 characters), adopt's live values (200) and its footer (10,000);
 *  - no parser's message quoting the body: a non-JSON answer of the service or of GitHub;
 *  - a live owner shown cut to 200 characters;
 *  - the sticky comment's author by `user.login` alone.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setRunSecrets } from '../../src/redact.js';
import { escapeControls } from '../../src/escape.js';
import { request, type RepoTarget } from '../../src/action/github-api.js';
import { DESCRIPTION_MAX, recordApply, statusBody, type ApplyRecord } from '../../src/action/deployments.js';
import { behindLine, notManagedEntry } from '../../src/render/describe.js';
import { BehindCheckoutError } from '../../src/history/behind.js';
import { refusalOf } from '../../src/action/refusal.js';
import { OwnedElsewhereError } from '../../src/reconcile/ownership-refusal.js';
import { pullRequestBody } from '../../src/action/adopt-step.js';
import { failureCommentBody } from '../../src/action/steps.js';
import { parseJsonBody } from '../../src/service/json-body.js';
import { writtenBy } from '../../src/action/comment.js';
import type { ScopeKey } from '../../src/scope.js';
import type { Drifted, NotAdopted } from '../../src/reconcile/adopt-drift.js';
import { notAdoptedReason } from '../../src/render/describe.js';
import { leakCheck, readable, secretForms } from './secret-forms.js';

const KEY = 'sk_live_Outbound*Key_9c2e';
const FORMS = secretForms(KEY, 11);
const PART = 5;

const { parts: PARTS } = leakCheck(FORMS, PART);

/** The parts of the key `text` shows, as a reader sees it. */
function leaked(text: string): string[] {
  const seen = readable(text);
  return PARTS.filter((part) => seen.includes(part));
}

/** Each form at every offset from wholly before `cut` to wholly after it. */
function around(cut: number, pad = 'x'): { name: string; at: number; text: string }[] {
  const cases: { name: string; at: number; text: string }[] = [];
  for (const [name, form] of Object.entries(FORMS)) {
    for (let at = Math.max(0, cut - form.length - 2); at <= cut + 2; at += 1) cases.push({ name, at, text: `${pad.repeat(at)}${form}${'y'.repeat(40)}` });
  }
  return cases;
}

function expectNoLeak(shown: (text: string) => string, cut: number, pad?: string): void {
  const found: string[] = [];
  for (const { name, at, text } of around(cut, pad)) {
    const parts = leaked(shown(text));
    if (parts.length > 0) found.push(`${name} at ${at}: ${parts[0]}`);
  }
  expect(found).toEqual([]);
}

beforeEach(() => setRunSecrets([KEY]));
afterEach(() => setRunSecrets([]));

describe('the one outbound step: the GitHub client redacts every body', () => {
  it('every string of a body, at any depth, reaches GitHub redacted, whatever the caller sent', async () => {
    const sent: string[] = [];
    const fetch = ((_url: string, init: RequestInit) => {
      sent.push(init.body as string);
      return Promise.resolve(new Response('{"id":1}', { status: 201, headers: { 'content-type': 'application/json' } }));
    }) as typeof globalThis.fetch;
    const target: RepoTarget = { apiUrl: 'http://127.0.0.1:9', token: 'ghs_t', owner: 'acme', repo: 'policies', fetch };
    for (const form of Object.values(FORMS)) {
      await request(target, 'POST', '/repos/acme/policies/issues/1/comments', { body: `plan ${form} end`, nested: { list: [`a${form}`] } });
    }
    expect(sent).toHaveLength(5);
    expect(sent.flatMap(leaked)).toEqual([]);
    expect(JSON.parse(sent[0] ?? '')).toEqual({ body: 'plan *** end', nested: { list: ['a***'] } });
  });

  it("a 2xx answer of GitHub that is not JSON is named by status, type and length, not by the parser's message", async () => {
    const fetch = (() => Promise.resolve(new Response(`${KEY.slice(0, 10)} not json`, { status: 200, headers: { 'content-type': 'text/plain' } }))) as typeof globalThis.fetch;
    const target: RepoTarget = { apiUrl: 'http://127.0.0.1:9', token: 'ghs_t', owner: 'acme', repo: 'policies', fetch };
    const error = await request(target, 'GET', '/repos/acme/policies/pulls').catch((thrown: unknown) => thrown as Error);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('[GET] /repos/acme/policies/pulls: 200 the answer is not JSON (text/plain, 19 characters)');
  });
});

describe('deployments: redacted whole, then cut to 140 characters', () => {
  const record = (detail: string): ApplyRecord => ({ environment: 'autojoin', commit: 'c'.repeat(40), result: 'refused', detail });

  it("the status's description: a refusal quoting a live owner that echoes the key, at every offset around the cut", () => {
    const shown = (detail: string): string => {
      const description = String(statusBody(record(detail)).description);
      expect(description.length).toBeLessThanOrEqual(DESCRIPTION_MAX);
      return description;
    };
    expectNoLeak(shown, DESCRIPTION_MAX - 'refused: '.length);
    expect(statusBody(record(`owned elsewhere: ${KEY}`)).description).toBe('refused: owned elsewhere: ***');
  });

  it('the deployment and its status as sent: no part of the key in the payload, the description or the status', async () => {
    const sent: string[] = [];
    let id = 0;
    const fetch = ((_url: string, init: RequestInit) => {
      sent.push(init.body as string);
      id += 1;
      return Promise.resolve(new Response(JSON.stringify({ id }), { status: 201, headers: { 'content-type': 'application/json' } }));
    }) as typeof globalThis.fetch;
    const target: RepoTarget = { apiUrl: 'http://127.0.0.1:9', token: 'ghs_t', owner: 'acme', repo: 'policies', fetch };
    for (const { text } of around(DESCRIPTION_MAX - 'refused: '.length)) {
      await recordApply(target, { ...record(text), actor: text, planSha256: text });
    }
    expect(sent.length).toBeGreaterThan(100);
    expect(sent.flatMap(leaked)).toEqual([]);
  });
});

describe('a marker commit, redacted whole, then cut to 12 characters', () => {
  const key = 'team/a' as ScopeKey;

  it('the plan\'s "written from a commit this checkout does not contain" line (text, markdown, comment, summary)', () => {
    expectNoLeak((commit) => behindLine({ behind: [{ key, commit }] }) ?? '', 12);
    expect(behindLine({ behind: [{ key, commit: KEY }] })).toContain('(commit ***)');
  });

  it("apply's error and the action's refusal table", () => {
    expectNoLeak((commit) => new BehindCheckoutError([{ key, commit }]).message, 12);
    expectNoLeak((commit) => JSON.stringify(refusalOf(new BehindCheckoutError([{ key, commit }]))?.rows), 12);
  });

  it("the not-managed scope's commit in the plan's description", () => {
    expectNoLeak((commit) => notManagedEntry({ key, owner: 'infra', commit }), 12);
  });

  it('a marker commit with no secret in it is shown as git abbreviates it', () => {
    expect(behindLine({ behind: [{ key, commit: '1a2b3c4d5e6f7a8b9c0d' }] })).toContain('(commit 1a2b3c4d5e6f)');
  });
});

describe('a live owner is shown cut to 200 characters, redacted whole first', () => {
  const key = 'team/a' as ScopeKey;
  it("apply's ownership refusal and the action's refusal table", () => {
    const cut = 200;
    const error = (owner: string): OwnedElsewhereError => new OwnedElsewhereError([{ key, owner }], 'default');
    expectNoLeak((owner) => error(owner).message, cut - 1);
    expectNoLeak((owner) => JSON.stringify(refusalOf(error(owner))?.rows), cut - 1);
    const huge = error('o'.repeat(2_000_000));
    expect(huge.message.length).toBeLessThan(2_000);
    expect(JSON.stringify(refusalOf(huge)?.rows).length).toBeLessThan(2_000);
  });
});

describe("the action's own cuts", () => {
  it("the error comment: the error's message redacted whole, then cut to 4,000 characters", () => {
    expectNoLeak((message) => failureCommentBody('autojoin-sync plan', message, '<!-- m -->'), 3999);
  });

  it("adopt's pull request body: live values cut to 200, the footer to 10,000", () => {
    const drifted = (value: string): Drifted => ({
      key: 'team/a' as ScopeKey,
      source: { file: 'policies/a.autojoin.yaml', line: 1 },
      live: ['acme.com'],
      outside: { added: [], removed: [], fields: [{ field: 'scopeName', before: 'A', after: value }], modifiedAt: '2026-01-02T00:00:00Z' },
    } as unknown as Drifted);
    expectNoLeak((value) => pullRequestBody([drifted(value)], []), 199);
    expect(pullRequestBody([drifted('v'.repeat(5_000))], []).length).toBeLessThan(1_500);
  });

  it("adopt's pull request body: the footer of scopes not adopted, redacted whole, then cut to 10,000 characters", () => {
    // 46 lines of about 213 characters, then a line whose refusal's message is the form: a first
    // line of `shift` characters moves the form across the footer's cut.
    const refused = (key: string, message: string): NotAdopted => ({
      key,
      source: { file: 'a.yaml', line: 1, column: 1 },
      refusal: { file: 'a.yaml', line: 1, column: 1, severity: 'error', code: 'rule-deny', message },
    });
    const worded = notAdoptedReason(refused('team/z', 'Q')).length - 1;
    const entries = (shift: number, reason: string): NotAdopted[] => [
      refused('team/first', 'z'.repeat(shift)),
      ...Array.from({ length: 46 }, (_, index) => refused(`team/f${String(index).padStart(2, '0')}`, 'z'.repeat(178 - worded))),
      refused('team/echo', reason),
    ];
    const footerOf = (body: string): string => body.slice(body.indexOf('**Not adopted**'));
    const found: string[] = [];
    let straddled = 0;
    // Where the last reason starts with no shift; each character of shift moves it one on.
    const start = footerOf(pullRequestBody([], [], entries(0, 'Q'))).indexOf('error: Q;') + 'error: '.length;
    for (const [name, form] of Object.entries(FORMS)) {
      const shownLength = escapeControls(form).length;
      for (let shift = 0; shift < 200; shift += 1) {
        const at = start + shift;
        if (at < 10_000 - shownLength - 2 || at > 10_002) continue;
        straddled += 1;
        const parts = leaked(footerOf(pullRequestBody([], [], entries(shift, form))));
        if (parts.length > 0) found.push(`${name} at ${at}: ${parts[0]}`);
      }
    }
    expect(straddled, String(start)).toBeGreaterThan(100);
    expect(found).toEqual([]);
  });
});

describe("no parser's message quoting the body", () => {
  it("a service answer that is not JSON is named by status, content type and length", () => {
    const parsed = parseJsonBody(Buffer.from(`${KEY} is what you sent`), 'text/plain', 200);
    expect(parsed).toEqual({ ok: false, problem: `the body is not valid JSON (status 200, text/plain, ${KEY.length + 17} bytes)` });
  });
});

describe('the sticky comment is found by its author\'s user.login alone', () => {
  it('a person commenting through the App with their own token does not own the comment', () => {
    expect(writtenBy({ id: 1, user: { login: 'mallory' }, performed_via_github_app: { slug: 'autojoin-app' } } as Parameters<typeof writtenBy>[0], 'autojoin-app[bot]')).toBe(false);
    expect(writtenBy({ id: 2, user: { login: 'autojoin-app[bot]' } }, 'autojoin-app[bot]')).toBe(true);
  });
});
