/**
 * Text is inert (issue 12): control characters and bidi overrides in policy strings are errors,
 * text from the server is escaped before it reaches a terminal, homographs of familiar domains
 * are errors, and every IDN is shown as punycode beside Unicode (validate, plan, PR comment).
 * Secrets in a malformed base URL are never echoed.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { renderMarkdown, renderText } from '../../src/render/index.js';
import { escapeControls } from '../../src/escape.js';
import { checkDomain } from '../../src/policy/index.js';
import shipped from '../../src/confusables.json' with { type: 'json' };
import unhomoglyphData from 'unhomoglyph/data.json' with { type: 'json' };
import { buildPlan } from '../support/plan.js';
import { liveMap, policy as planPolicy, TARGET } from '../plan/fixtures.js';
import { assertBuilt, cli, policy, tempProject, type TempProject } from '../e2e/support.js';

let project: TempProject | undefined;
let server: Server | undefined;
beforeAll(assertBuilt);
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;

describe('control characters and bidi overrides', () => {
  it.each([
    ['an ESC sequence in scopeName', 'scopeName: "Eng\\e[2J\\e[H"', 'scopeName: must not contain control characters or bidirectional overrides (found U+001B)'],
    ['a C1 control in scope', 'scope: "a\\x9bb"', 'scope: must not contain control characters or bidirectional overrides (found U+009B)'],
    ['a right-to-left override in componentId', 'componentId: "cmp\\u202Egnp.exe"', 'componentId: must not contain control characters or bidirectional overrides (found U+202E)'],
    ['a bell in scopeType', 'scopeType: "team\\a"', 'scopeType: must not contain control characters or bidirectional overrides (found U+0007)'],
  ])('%s is an error, and nothing raw reaches the terminal', async (_name, line, message) => {
    const fields = { scope: 'scope: a', scopeType: 'scopeType: team', componentId: 'componentId: c' };
    const key = line.slice(0, line.indexOf(':'));
    const text = [...Object.values({ ...fields, [key]: line }), 'domains: [a.example]'].join('\n');
    project = await tempProject({ 'a.autojoin.yaml': `${text}\n` });
    const result = await cli(['validate'], { cwd: project.dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(message);
    expect(result.stdout + result.stderr).not.toMatch(RAW_CONTROL);
  });

  it('text from the server (an error message with ESC and OSC sequences) is escaped', async () => {
    server = createServer((_request, response) => {
      const body = JSON.stringify({ statusCode: 400, message: 'bad \u001b]0;pwned\u0007 \u001b[2J request', error: 'Bad Request' });
      response.writeHead(400, { 'content-type': 'application/json' }).end(body);
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    project = await tempProject({ 'a.autojoin.yaml': policy('a', ['a.example']) });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const result = await cli(['plan'], { cwd: project.dir, env: { AUTOJOIN_BASE_URL: url, AUTOJOIN_API_KEY: 'k' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('400 bad \\x1b]0;pwned\\x07 \\x1b[2J request');
    expect(result.stderr).not.toMatch(RAW_CONTROL);
  });

  it('an argument the CLI echoes in its usage errors (a branch name a workflow passes on) is escaped', async () => {
    project = await tempProject({ 'a.autojoin.yaml': policy('a', ['a.example']) });
    const command = await cli(['\u001b]0;pwned\u0007plan'], { cwd: project.dir });
    expect(command.code).toBe(1);
    expect(command.stderr).toContain("unknown command '\\x1b]0;pwned\\x07plan'");
    const flag = await cli(['plan', '--concurrency', '\u001b[2J8'], { cwd: project.dir });
    expect(flag.code).toBe(1);
    expect(flag.stderr).toContain("argument '\\x1b[2J8' is invalid");
    expect(command.stderr + flag.stderr).not.toMatch(RAW_CONTROL);
  });

  it('escapeControls turns every non-printable character into a visible escape', () => {
    expect(escapeControls('a\u001b[2Jb\u202ec\u200bd\u0085e\nf')).toBe('a\\x1b[2Jb\\u{202e}c\\u{200b}d\\x85e\\x0af');
    expect(escapeControls('line one\nline two', true)).toBe('line one\nline two');
  });
});

describe('homographs', () => {
  it.each([
    ['gmаil.com', 'mixes scripts in one label (Latin and Cyrillic)'],
    ['gооgle.com', 'mixes scripts in one label'],
    ['gmaiı.com', 'looks like the ASCII name gmaii.com'],
    ['агсог.de', 'looks like arcor.de (a homograph of a webmail or well-known domain)'],
    ['xn--gmil-63d.com', 'mixes scripts'],
  ])('%s is an error', (domain, message) => {
    const [finding] = checkDomain(domain);
    expect(finding).toMatchObject({ severity: 'error', code: 'homograph' });
    expect(finding?.message).toContain(message);
  });

  it.each(['müller.de', 'bücher.example', 'пример.рф', '日本語.jp', 'ελλάδα.gr', 'straße.de', 'acme.com'])('%s is fine', (domain) => {
    expect(checkDomain(domain).filter((finding) => finding.severity === 'error')).toEqual([]);
  });

  it('ships the ASCII part of unhomoglyph\'s confusables.txt data, up to date (node scripts/confusables.mjs)', () => {
    const ascii = Object.entries(unhomoglyphData as Record<string, string>).filter(([, prototype]) => /^[\x20-\x7e]+$/u.test(prototype));
    expect(shipped).toEqual(Object.fromEntries(ascii));
    expect(Object.keys(shipped).length).toBeGreaterThan(1_500);
  });

  it('validate reports them at file:line, shows IDNs as punycode and Unicode, and exits 1', async () => {
    project = await tempProject({ 'a.autojoin.yaml': policy('a', ['gmаil.com']), 'b.autojoin.yaml': policy('b', ['müller.de']) });
    const result = await cli(['validate'], { cwd: project.dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('a.autojoin.yaml:5:5: error: xn--gmil-63d.com (gmаil.com) mixes scripts in one label');
    expect(result.stdout).toContain('  team/b  xn--mller-kva.de (müller.de)');
  });
});

describe('IDNs side by side', () => {
  const plan = buildPlan({ desired: [planPolicy('team/a', ['xn--mller-kva.de', 'acme.com'])], live: liveMap(), target: TARGET });

  it('in the text plan and the markdown plan (PR comment)', () => {
    expect(renderText(plan, { color: false })).toContain('+ xn--mller-kva.de (müller.de)');
    expect(renderText(plan, { color: false })).toContain('+ acme.com\n');
    expect(renderMarkdown(plan)).toContain('+ xn--mller-kva.de (müller.de)');
  });

  it('in plan on the terminal', async () => {
    project = await tempProject({ 'a.autojoin.yaml': policy('a', ['müller.de']) });
    const result = await cli(['plan'], { cwd: project.dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('+ xn--mller-kva.de (müller.de)');
  });
});

describe('base URLs', () => {
  it.each([
    ['https://user:hun/ter2@invitations.example.com', ['hun', 'ter2', 'user']],
    ['https://user:s3cr3t@invitations.example.com', ['s3cr3t']],
    ['ht tp://user:s3cr3t@x', ['s3cr3t']],
  ])('%s is refused and its credentials never echoed', async (url, secrets) => {
    project = await tempProject({ 'a.autojoin.yaml': policy('a', ['a.example']) });
    const result = await cli(['plan'], { cwd: project.dir, env: { AUTOJOIN_BASE_URL: url, AUTOJOIN_API_KEY: 'k' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/base URL/u);
    for (const secret of secrets) expect(result.stdout + result.stderr).not.toContain(secret);
  });
});
