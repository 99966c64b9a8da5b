/**
 * Rules where users meet them: validate (text and JSON diagnostics), plan (errors stop it, nothing
 * read is planned), the action's annotations; and a rule whose scopes glob matches nothing, an
 * error in the project file. Spawned processes, the embedded emulator, the action as GitHub runs it.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { pullRequestPayload, runAction } from '../action/support/run-action.js';

const PROJECT = `rules:
  - name: corporate domains only
    scopes: ["team/*"]
    allow: ["acme.com", "*.acme.com"]
    require: ["acme.com"]
`;
const GOOD = 'scope: eng\nscopeType: team\ncomponentId: c1\ndomains:\n  - acme.com\n  - eu.acme.com\n';
const BAD = 'scope: ops\nscopeType: team\ncomponentId: c1\ndomains:\n  - acme.com\n  - agency.example\n';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'rules-'));
  await mkdir(path.join(dir, 'policies'));
  // A repository: the project file at its root governs the paths below it (outside git only the named directory's would).
  execFileSync('git', ['init', '-q'], { cwd: dir });
  await writeFile(path.join(dir, 'autojoin-sync.yaml'), PROJECT);
  await writeFile(path.join(dir, 'policies/eng.autojoin.yaml'), GOOD);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const FINDING = 'policies/ops.autojoin.yaml:6:5: error: rule "corporate domains only": agency.example is not allowed in team/ops (allowed: acme.com, *.acme.com)';

describe('rules in validate, plan and the action', () => {
  it('validate reports a finding at the entry, in text and in the JSON diagnostics; exit 1', async () => {
    await writeFile(path.join(dir, 'policies/ops.autojoin.yaml'), BAD);
    const text = await runCli(['validate', 'policies'], { cwd: dir });
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(FINDING);
    const json = JSON.parse((await runCli(['validate', 'policies', '--format', 'json'], { cwd: dir })).stdout) as { diagnostics: unknown[] };
    expect(json.diagnostics).toContainEqual({
      file: 'policies/ops.autojoin.yaml', line: 6, column: 5, severity: 'error', code: 'rule-allow',
      message: 'rule "corporate domains only": agency.example is not allowed in team/ops (allowed: acme.com, *.acme.com)',
    });
  });

  it('plan stops on a rule error: nothing planned, nothing written; a warning-level rule lets it through', async () => {
    await writeFile(path.join(dir, 'policies/ops.autojoin.yaml'), BAD);
    const plan = await runCli(['plan', '--emulator', '--no-prune', 'policies'], { cwd: dir });
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(FINDING);
    expect(plan.stderr).toContain('1 error in the policy files; nothing was planned');
    await writeFile(path.join(dir, 'autojoin-sync.yaml'), `${PROJECT}    level: warning\n`);
    const warned = await runCli(['plan', '--emulator', '--no-prune', 'policies'], { cwd: dir });
    expect(warned.code).toBe(0);
    expect(warned.stderr).toContain(FINDING.replace('error:', 'warning:'));
  });

  it('removing a required domain is an error before any plan', async () => {
    await writeFile(path.join(dir, 'policies/eng.autojoin.yaml'), GOOD.replace('  - acme.com\n', ''));
    const plan = await runCli(['plan', '--emulator', '--no-prune', 'policies'], { cwd: dir });
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('policies/eng.autojoin.yaml:4:1: error: rule "corporate domains only": team/eng must list acme.com');
    expect(plan.stdout).toBe('');
  });

  it('a scopes glob that matches no declared scope is a warning in the project file, at the glob, not an error', async () => {
    await writeFile(path.join(dir, 'autojoin-sync.yaml'), PROJECT.replace('["team/*"]', '["team/*", "org/*"]'));
    const result = await runCli(['validate', 'policies'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'autojoin-sync.yaml:3:24: warning: rule "corporate domains only": scopes glob org/* matches no scope the policy files declare, so the rule checks nothing there',
    );
  });

  it('the action annotates a finding at file, line and column', async () => {
    await writeFile(path.join(dir, 'policies/ops.autojoin.yaml'), BAD);
    const run = await runAction({
      inputs: { command: 'validate', path: 'policies', 'base-url': '', 'api-key': '', comment: 'false' },
      workspace: dir,
      eventName: 'pull_request',
      payload: pullRequestPayload(7),
      apiUrl: 'http://127.0.0.1:9',
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^::error title=autojoin-sync%3A rule-allow,file=policies\/ops\.autojoin\.yaml,line=6,col=5::rule "corporate domains only": agency\.example is not allowed/m);
  });
});
