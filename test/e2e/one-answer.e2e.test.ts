/**
 * One answer from any directory (design, "One answer from any directory"), as a user runs the CLI
 * over a real git repository: the project file, the files read and the embedded emulator's state
 * all follow the paths, never the working directory; concurrent applies lose no write.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { commitAll } from '../support/git.js';
import { assertBuilt, cli, SECRET, startTestEmulator, tempProject, writeFiles, type TempProject } from './support.js';

let top: TempProject | undefined;
beforeAll(assertBuilt);
afterEach(async () => top?.cleanup());

/** A policy without componentId: only the project file's defaults make it valid. */
const bare = (scope: string, domain: string): string => `scope: ${scope}\nscopeType: team\ndomains: [${domain}]\n`;

/** /tmp/…/repo (a git repository whose project file sets componentId) and /tmp/…/elsewhere (another repository). */
async function estate(scopes = ['eng', 'ops']): Promise<{ repo: string; elsewhere: string }> {
  top = await tempProject();
  const repo = join(top.dir, 'repo');
  const files: Record<string, string> = { 'autojoin-sync.yaml': 'defaults:\n  componentId: cmp_project\n' };
  for (const scope of scopes) files[`policies/teams/${scope}.autojoin.yaml`] = bare(scope, `${scope}.example`);
  await writeFiles(repo, files);
  commitAll(repo);
  const elsewhere = join(top.dir, 'elsewhere');
  await writeFiles(elsewhere, { 'README.md': 'another repository\n' });
  commitAll(elsewhere);
  return { repo, elsewhere };
}

const withoutCreatedAt = (json: string): string => json.replace(/"createdAt": "[^"]*"/u, '"createdAt": ""');

describe('the same repository from any working directory', () => {
  it('plans byte-identically from its root, a subdirectory and from inside another repository', async () => {
    const { repo, elsewhere } = await estate();
    const runs = [
      { cwd: repo, path: 'policies', project: 'autojoin-sync.yaml' },
      { cwd: join(repo, 'policies/teams'), path: '..', project: '../../autojoin-sync.yaml' },
      { cwd: elsewhere, path: join(repo, 'policies'), project: '../repo/autojoin-sync.yaml' },
    ];
    const texts: string[] = [];
    const jsons: string[] = [];
    for (const run of runs) {
      const text = await cli(['plan', run.path], { cwd: run.cwd });
      // The preamble names the project file from where the run started; the plan is the same.
      expect(text.stderr).toContain(`using project file ${run.project};`);
      expect(text.stderr).not.toContain('missing required key');
      expect(text.code).toBe(0);
      texts.push(text.stdout);
      const json = await cli(['plan', run.path, '--format', 'json'], { cwd: run.cwd });
      expect(json.code).toBe(0);
      jsons.push(withoutCreatedAt(json.stdout));
    }
    expect(texts[0]).toContain('2 to create');
    expect(new Set(texts).size).toBe(1);
    expect(new Set(jsons).size).toBe(1);
    expect(jsons[0]).toContain('"file": "policies/teams/eng.autojoin.yaml"');
    // One state, beside the project file; none where the runs started.
    expect(existsSync(join(repo, '.autojoin-sync/emulator.json'))).toBe(true);
    expect(existsSync(join(elsewhere, '.autojoin-sync'))).toBe(false);
    expect(existsSync(join(repo, 'policies/teams/.autojoin-sync'))).toBe(false);
  });

  it('keeps one embedded state: apply from a subdirectory, then plan from the root shows no changes', async () => {
    const { repo } = await estate();
    const applied = await cli(['apply', '--yes', '--verbose', 'eng.autojoin.yaml'], { cwd: join(repo, 'policies/teams') });
    expect(applied.code).toBe(0);
    expect(applied.stderr).toContain('state in ../../.autojoin-sync/emulator.json');
    const planned = await cli(['plan', 'policies/teams/eng.autojoin.yaml', '--detailed-exitcode'], { cwd: repo });
    expect(planned.stdout).toContain('No changes.');
    expect(planned.code).toBe(0);
  });

  it('validates a path named outside the working directory\'s repository: its errors, not a refusal', async () => {
    const { repo, elsewhere } = await estate();
    await writeFiles(repo, { 'policies/bad.autojoin.yaml': 'scope: bad\nscopeType: team\ndomains: [gmail.com]\n' });
    const result = await cli(['validate', join(repo, 'policies')], { cwd: elsewhere });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('policies/bad.autojoin.yaml:3:');
    expect(result.stdout).toContain('webmail');
    expect(result.stdout).not.toContain('outside');
  });

  it('refuses a symlink that leaves the named path\'s repository', async () => {
    const { repo, elsewhere } = await estate();
    await writeFiles(elsewhere, { 'x.autojoin.yaml': bare('x', 'x.example') });
    const { symlink } = await import('node:fs/promises');
    await symlink(join(elsewhere, 'x.autojoin.yaml'), join(repo, 'policies/x.autojoin.yaml'));
    const result = await cli(['validate', 'policies'], { cwd: repo });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('policies/x.autojoin.yaml:1:1: error:');
    expect(result.stdout).toContain(`outside ${repo}`);
  });

  it('reports an invalid project file once, at its position, and nothing per policy', async () => {
    const { repo, elsewhere } = await estate();
    await writeFiles(repo, { 'autojoin-sync.yaml': 'defaults:\n  componentId: cmp_project\nprune:\n  keep: ["eng-api"]\n' });
    for (const args of [['validate', join(repo, 'policies')], ['plan', join(repo, 'policies')]]) {
      const result = await cli(args, { cwd: elsewhere });
      expect(result.code).toBe(1);
      const output = result.stdout + result.stderr;
      expect(output).toContain('autojoin-sync.yaml:4:10: error: prune.keep[0]: must be TYPE/ID (a scope type, "/", then a scope id), got "eng-api"');
      expect(output).not.toContain('must not contain "/"');
      expect(output).not.toContain('missing required key');
    }
  });
});

describe('the embedded state under concurrent runs', () => {
  it('keeps every write of 8 applies of different scopes run at the same time', async () => {
    const scopes = ['s1', 's2', 's3', 's4', 's5', 's6', 's7', 's8'];
    const { repo } = await estate(scopes);
    const results = await Promise.all(scopes.map((scope) => cli(['apply', '--yes', `policies/teams/${scope}.autojoin.yaml`], { cwd: repo, timeoutMs: 120_000 })));
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    const state = JSON.parse(await readFile(join(repo, '.autojoin-sync/emulator.json'), 'utf8')) as { scopes: Record<string, unknown> };
    expect(Object.keys(state.scopes).sort()).toEqual(scopes.map((scope) => `team/${scope}`));
    expect(existsSync(join(repo, '.autojoin-sync/emulator.json.lock'))).toBe(false);
    const planned = await cli(['plan', '--detailed-exitcode'], { cwd: repo });
    expect(planned.stdout).toContain('No changes.');
  }, 180_000);
});

describe("the service SDKs' variables", () => {
  it('VORTEX_API_BASE_URL and VORTEX_API_KEY reach the service when the AUTOJOIN_ ones are unset', async () => {
    const { repo } = await estate(['eng']);
    const emulator = await startTestEmulator();
    try {
      const env = { VORTEX_API_BASE_URL: emulator.url, VORTEX_API_KEY: SECRET, CI: 'true' };
      const result = await cli(['plan', 'policies', '--detailed-exitcode'], { cwd: repo, env });
      expect(result.stderr).toContain(`service host ${new URL(emulator.url).host}`);
      expect(result.code, result.stderr).toBe(2);
      const wrong = await cli(['plan', 'policies'], { cwd: repo, env: { ...env, VORTEX_API_KEY: 'not-the-key' } });
      expect(wrong.code).toBe(1);
      expect(wrong.stderr).toMatch(/401/u);
    } finally {
      await emulator.close();
    }
  });
});
