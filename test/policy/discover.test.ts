import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverPolicyFiles, isPolicyFileName, loadPolicies } from '../../src/policy/index.js';
import { commitAll } from '../support/git.js';

let root: string;
const policy = (scope: string): string => `scope: ${scope}\nscopeType: default\ncomponentId: c\ndomains: [acme.com]\n`;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'autojoin-discover-'));
  const files: Record<string, string> = {
    'repo/autojoin.yaml': policy('root'),
    'repo/teams/eng.autojoin.yml': policy('eng'),
    'repo/teams/sales.autojoin.yaml': policy('sales'),
    'repo/teams/notes.yaml': 'not: [a policy',
    'repo/teams/autojoin.yaml.bak': 'not: [a policy',
    'repo/node_modules/pkg/autojoin.yaml': 'not: [a policy',
    'repo/.git/autojoin.yaml': 'not: [a policy',
    'repo/.autojoin-sync/autojoin.yaml': 'not: [a policy',
    'repo/odd-name.yaml': policy('odd'),
    'outside/x.autojoin.yaml': policy('outside'),
  };
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await writeFile(path.join(root, name), text);
  }
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('discovery', () => {
  it('finds autojoin.yaml and *.autojoin.yaml/.yml, skipping node_modules, .git and .autojoin-sync', async () => {
    const result = await loadPolicies(['.'], { cwd: path.join(root, 'repo') });
    expect(result.files).toEqual(['autojoin.yaml', 'teams/eng.autojoin.yml', 'teams/sales.autojoin.yaml']);
    // odd-name.yaml is read only when named (the next test); walked past, it is named in a warning.
    expect(result.diagnostics.map((diagnostic) => `${diagnostic.file}: ${diagnostic.severity} ${diagnostic.code}`)).toEqual(['odd-name.yaml: warning not-a-policy-file-name']);
  });

  it('takes a path that is a file as is, de-duplicates, and reports paths relative to cwd', async () => {
    const cwd = path.join(root, 'repo');
    const result = await loadPolicies(['odd-name.yaml', 'teams', 'teams/eng.autojoin.yml'], { cwd });
    expect(result.files).toEqual(['odd-name.yaml', 'teams/eng.autojoin.yml', 'teams/sales.autojoin.yaml']);
    expect(result.policies.map((p) => `${p.key} ${p.source.file}`)).toEqual([
      'default/eng teams/eng.autojoin.yml',
      'default/odd odd-name.yaml',
      'default/sales teams/sales.autojoin.yaml',
    ]);
  });

  // One name a file for the whole run: the load keeps every file's name until it ends.
  it('names the files relative to cwd, as the load and its policies name them', async () => {
    const cwd = path.join(root, 'repo');
    const found = await discoverPolicyFiles(['teams', '.'], cwd);
    expect(found.files).toEqual(['autojoin.yaml', 'teams/eng.autojoin.yml', 'teams/sales.autojoin.yaml']);
    const result = await loadPolicies(['teams', '.'], { cwd });
    expect(result.files).toEqual(found.files);
    expect(result.policies.map((p) => p.source.file).sort()).toEqual(found.files);
  });

  // Issue 12: a policy file outside the repository (here: outside the working directory, as
  // there is no repository) is an error naming it, even when given by path.
  it('refuses a policy file outside the working directory when there is no repository', async () => {
    const cwd = path.join(root, 'repo');
    const result = await loadPolicies(['autojoin.yaml', path.join(root, 'outside')], { cwd });
    expect(result.policies.map((p) => p.key)).toEqual(['default/root']);
    expect(result.diagnostics).toMatchObject([{ file: '../outside/x.autojoin.yaml', severity: 'error', code: 'unsafe-file' }]);
    expect(result.diagnostics[0]?.message).toContain('outside');
  });

  it('reports a missing path as a diagnostic and still loads the rest', async () => {
    const result = await loadPolicies(['nope', 'autojoin.yaml'], { cwd: path.join(root, 'repo') });
    expect(result.diagnostics).toEqual([
      { file: 'nope', line: 1, column: 1, severity: 'error', code: 'path-not-found', message: 'no such file or directory' },
    ]);
    expect(result.policies.map((p) => p.key)).toEqual(['default/root']);
  });

  it.each([
    ['autojoin.yaml', true],
    ['autojoin.yml', true],
    ['eng.autojoin.yaml', true],
    ['a.b.autojoin.yml', true],
    ['myautojoin.yaml', false],
    ['autojoin.json', false],
    ['autojoin-sync.yaml', false],
  ])('isPolicyFileName(%j) is %s', (name, expected) => {
    expect(isPolicyFileName(name)).toBe(expected);
  });
});

describe('discovery in a repository named with a trailing slash', () => {
  it('does not take the repository itself for a nested one (a submodule)', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'discover-slash-'));
    try {
      await mkdir(path.join(dir, 'policies'));
      await writeFile(path.join(dir, 'policies/a.autojoin.yaml'), 'scope: a\nscopeType: team\ncomponentId: c\ndomains: [a.example]\n');
      commitAll(dir);
      const found = await discoverPolicyFiles(['policies'], `${dir}/`);
      expect(found.diagnostics).toEqual([]);
      expect(found.files).toHaveLength(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
