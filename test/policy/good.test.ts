import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadPolicies, loadProjectConfig } from '../../src/policy/index.js';
import { formatDiagnostic } from '../../src/render/diagnostics.js';

const fixture = (dir: string): string => fileURLToPath(new URL(`../fixtures/policies/${dir}/`, import.meta.url));
const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url));

describe('good policy files', () => {
  it('load into normalized, sorted policies with their source positions', async () => {
    const result = await loadPolicies(['.'], { cwd: fixture('good') });
    expect(result.files).toEqual(['autojoin.yml', 'minimal.autojoin.yaml', 'nested/warnings.autojoin.yaml', 'teams.autojoin.yaml']);
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      'nested/warnings.autojoin.yaml:6:5: warning: eng.acme.com is a subdomain of acme.com; only addresses at exactly eng.acme.com match (list acme.com too if you meant it)',
    ]);
    expect(result.policies).toEqual([
      {
        key: 'default/g-minimal',
        scope: 'g-minimal',
        scopeType: 'default',
        componentId: 'cmp_1',
        domains: ['acme.com'],
        source: { file: 'minimal.autojoin.yaml', line: 1, column: 1 },
        explicitEmpty: false,
      },
      {
        key: 'default/g-warn',
        scope: 'g-warn',
        scopeType: 'default',
        componentId: 'cmp_1',
        domains: ['eng.acme.com'],
        source: { file: 'nested/warnings.autojoin.yaml', line: 2, column: 1 },
        explicitEmpty: false,
      },
      {
        key: 'team/g-eng',
        scope: 'g-eng',
        scopeType: 'team',
        scopeName: 'Engineering',
        componentId: 'cmp_2',
        domains: ['acme.com', 'globex.com', 'xn--bcher-kva.de'],
        source: { file: 'teams.autojoin.yaml', line: 3, column: 1 },
        explicitEmpty: false,
      },
      {
        key: 'team/g-sales',
        scope: 'g-sales',
        scopeType: 'team',
        componentId: 'cmp_2',
        domains: ['acme.com', 'initech.com'],
        source: { file: 'teams.autojoin.yaml', line: 12, column: 1 },
        explicitEmpty: false,
      },
      {
        key: 'workspace/g-retired',
        scope: 'g-retired',
        scopeType: 'workspace',
        componentId: 'cmp_3',
        domains: [],
        source: { file: 'autojoin.yml', line: 3, column: 1 },
        explicitEmpty: true,
      },
    ]);
  });

  it('fill componentId and scopeType from the project file defaults', async () => {
    const cwd = fixture('project-defaults');
    const project = await projectIn(cwd);
    expect(project.diagnostics).toEqual([]);
    expect(project.config).toEqual({
      file: `${cwd}autojoin-sync.yaml`,
      baseUrl: 'https://invitations.example.com',
      defaults: { componentId: 'cmp_default', scopeType: 'team' },
      safety: { maxRemovals: 10, maxRemovalPercent: 25.5 },
    });
    const result = await loadPolicies(['policies'], { cwd, project: project.config });
    expect(result.diagnostics).toEqual([]);
    expect(result.policies.map((p) => [p.key, p.componentId])).toEqual([
      ['team/p-eng', 'cmp_default'],
      ['workspace/p-ws', 'cmp_own'],
    ]);
  });

  it('the examples form a clean estate of 8 scopes in 4 files', async () => {
    const project = await projectIn(EXAMPLES);
    const result = await loadPolicies(['policies'], { cwd: EXAMPLES, project: project.config });
    expect([...project.diagnostics, ...result.diagnostics]).toEqual([]);
    expect(result.files).toHaveLength(4);
    expect(result.policies).toHaveLength(8);
    expect(result.policies.filter((p) => p.explicitEmpty).map((p) => p.key)).toEqual(['team/acme-interns-2024', 'team/acme-legacy-support']);
  });
});

describe('project file', () => {
  it('reports each schema problem at its line and ignores the invalid file', async () => {
    const cwd = fixture('project-bad');
    const project = await projectIn(cwd);
    expect(project.config).toEqual({ file: `${cwd}autojoin-sync.yaml` });
    expect(project.diagnostics.map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`)).toEqual([
      '1:10 invalid-value baseUrl: must start with https:// (http:// only for a loopback host)',
      '3:3 unknown-key unknown key "componentid" in defaults (did you mean "componentId"?); allowed keys: componentId, scopeType',
      '5:16 invalid-value safety.maxRemovals: must be at least 0, got -1',
      '6:22 invalid-value safety.maxRemovalPercent: must be at most 100, got 150',
      '7:1 unknown-key unknown key "apiKey"; allowed keys: owner, baseUrl, read, listing, defaults, safety, rules, drift, prune, notify, dns',
    ]);
    expect(project.diagnostics.every((d) => d.file === 'autojoin-sync.yaml')).toBe(true);
    expect(JSON.stringify(project.diagnostics)).not.toContain('do-not-put-secrets-here');
  });

  it('is optional', async () => {
    expect(await projectIn(fixture('good'))).toEqual({ config: {}, diagnostics: [] });
  });
});

/** The project file of a directory (none when it has none), as a run with that directory as its path reads it. */
async function projectIn(dir: string): ReturnType<typeof loadProjectConfig> {
  const file = `${dir.replace(/\/$/u, '')}/autojoin-sync.yaml`;
  return loadProjectConfig(existsSync(file) ? file : undefined, { base: dir, roots: [dir] });
}
