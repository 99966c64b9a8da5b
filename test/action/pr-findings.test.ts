/**
 * A pull request's own findings first (issue 33, last gaps): the job summary and the sticky
 * comment of a plan that could not be made show the errors and warnings of the files the pull
 * request changed before the others, and only then keep three warnings of a kind (the rest
 * counted), so the pull request's own warning is never the one counted away. The action's `run()`
 * in-process with `@actions/core` replaced by spies; a real git repository as the workspace.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { emptyData, startEmulator, type Emulator } from '../../src/emulator/index.js';
import { commitAll, git } from '../support/git.js';
import { pullRequestFindings } from '../../src/action/pr-findings.js';
import type { Diagnostic } from '../../src/policy/types.js';

const core = vi.hoisted(() => {
  const summary = { addRaw: vi.fn(), write: vi.fn() };
  summary.addRaw.mockReturnValue(summary);
  summary.write.mockResolvedValue(summary);
  return { getInput: vi.fn<(name: string) => string>(), setOutput: vi.fn(), setFailed: vi.fn(), setSecret: vi.fn(), info: vi.fn(), notice: vi.fn(), warning: vi.fn(), error: vi.fn(), debug: vi.fn(), summary };
});
vi.mock('@actions/core', () => core);
const { run } = await import('../../src/action/main.js');

const API_KEY = 'ak-pr-findings-2b7c';
const policy = (scope: string, domains: string[]): string => `scope: ${scope}\nscopeType: team\ncomponentId: c1\ndomains:\n${domains.map((d) => `  - ${d}\n`).join('')}`;

let emulator: Emulator;
let workspace: string;

beforeEach(async () => {
  vi.clearAllMocks();
  emulator = await startEmulator({ port: 0, data: emptyData(), apiKey: API_KEY });
  workspace = await mkdtemp(join(tmpdir(), 'autojoin-pr-findings-'));
  for (const name of ['AUTOJOIN_API_KEY', 'AUTOJOIN_BASE_URL', 'AUTOJOIN_LOG', 'GITHUB_EVENT_PATH', 'GITHUB_REPOSITORY']) vi.stubEnv(name, undefined);
  vi.stubEnv('GITHUB_WORKSPACE', workspace);
  vi.stubEnv('RUNNER_TEMP', join(workspace, '.tmp'));
  vi.stubEnv('GITHUB_ACTION', 'plan-step');
  vi.stubEnv('GITHUB_STEP_SUMMARY', join(workspace, '.summary'));
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await Promise.all([emulator.close(), rm(workspace, { recursive: true, force: true })]);
});

/** Five unchanged files with a subdomain warning each; the pull request adds one more and an error, in a file sorted last. */
async function pullRequest(): Promise<void> {
  for (const n of [1, 2, 3, 4, 5]) await writeFile(join(workspace, `a${n}.autojoin.yaml`), policy(`a${n}`, [`eng.acme${n}.com`]));
  await writeFile(join(workspace, '.gitignore'), '.tmp\n.summary\n');
  const base = commitAll(workspace, 'base');
  await writeFile(join(workspace, 'z-pr.autojoin.yaml'), policy('z', ['eng.zeta.com', 'gmail.com']));
  git(workspace, 'add', '-A');
  git(workspace, 'commit', '-q', '-m', 'the pull request');
  const event = join(workspace, '.tmp-event.json');
  await writeFile(event, JSON.stringify({ pull_request: { number: 7, base: { sha: base } } }));
  vi.stubEnv('GITHUB_EVENT_PATH', event);
  vi.stubEnv('GITHUB_EVENT_NAME', 'pull_request');
  const inputs: Record<string, string> = { command: 'plan', 'base-url': emulator.url, 'api-key': API_KEY, path: '.', comment: 'false' };
  core.getInput.mockImplementation((name) => inputs[name] ?? '');
}

describe('the findings of a plan that could not be made, in a pull request', () => {
  it('show the pull request\'s own files first, then three warnings of a kind, the rest counted', async () => {
    await pullRequest();
    await run();
    expect(core.setFailed).toHaveBeenCalled();
    const summary = core.summary.addRaw.mock.calls.map(([text]) => String(text)).join('\n');
    const lines = summary.split('\n').filter((line) => /autojoin\.yaml:\d+:\d+:/.test(line));
    expect(lines[0]).toMatch(/^z-pr\.autojoin\.yaml:5:5: warning: eng\.zeta\.com is a subdomain/);
    expect(lines[1]).toMatch(/^z-pr\.autojoin\.yaml:6:5: error: gmail\.com is a webmail domain/);
    expect(lines.slice(2).map((line) => line.split(':')[0])).toEqual(['a1.autojoin.yaml', 'a2.autojoin.yaml']);
    expect(summary).toContain('and 3 more subdomain warnings; the annotations list them all');
  });
});

describe('pullRequestFindings', () => {
  const at = (file: string, severity: Diagnostic['severity'], code = 'subdomain'): Diagnostic => ({ file, line: 1, column: 1, severity, code, message: `${code} in ${file}` });

  it('keeps the files\' order outside a pull request, and never cuts an error', () => {
    const all = [at('a', 'warning'), at('b', 'warning'), at('c', 'warning'), at('d', 'error', 'webmail-domain'), at('e', 'warning')];
    const { shown, counted } = pullRequestFindings(all, new Set());
    expect(shown.map((d) => d.file)).toEqual(['a', 'b', 'c', 'd']);
    expect(counted).toEqual(['and 1 more subdomain warning; the annotations list them all']);
  });
});
