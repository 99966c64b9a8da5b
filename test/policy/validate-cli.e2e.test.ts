/**
 * `autojoin-sync validate` as a user runs it: a spawned process, output format, exit codes,
 * and proof that it contacts nothing even when a base URL is configured.
 */
import { createServer, type Server } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPolicies } from '../../src/policy/index.js';
import { formatDiagnostic } from '../../src/render/diagnostics.js';
import { renamedDiagnostics } from '../../src/render/shown-here.js';
import { runCli } from '../support/cli.js';

const fixture = (dir: string): string => fileURLToPath(new URL(`../fixtures/policies/${dir}/`, import.meta.url));
const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url));
// A run names files relative to the repository of its paths (here this one: JSON, SARIF); the text names them from the
// working directory, as a person can copy them there (docs/cli.md, "validate").
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const shown = (dir: string): string => `test/fixtures/policies/${dir}/`;

// A TCP listener that only counts connections: any request by validate would show up here.
let server: Server;
let connections = 0;
let baseUrl: string;
beforeAll(async () => {
  server = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  baseUrl = `http://127.0.0.1:${address.port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('autojoin-sync validate', () => {
  it('reports every problem in every bad file, sorted, exits 1 and contacts nothing', async () => {
    const cwd = fixture('bad');
    const result = await runCli(['validate'], { cwd, env: { AUTOJOIN_BASE_URL: baseUrl, AUTOJOIN_API_KEY: 'sekret-key-123' } });
    const expected = await loadPolicies([shown('bad')], { cwd: REPO });
    expect(result.code).toBe(1);
    // Every file named, the line's own and those inside its message, from the directory the run started in.
    const here = renamedDiagnostics(expected.diagnostics, (file) => file.replace(shown('bad'), ''));
    expect(result.stdout).toBe(here.map((d) => `${formatDiagnostic(d)}\n`).join(''));
    expect(result.stdout).not.toContain(shown('bad'));
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines.length).toBe(64);
    for (const line of lines) expect(line).toMatch(/^[\w./-]+:\d+:\d+: (error|warning): \S/);
    expect(lines[0]).toBe(
      `01-unknown-key.autojoin.yaml:6:1: error: ` +
      'unknown key "domain" (did you mean "domains"?); allowed keys: scope, scopeType, scopeName, componentId, metadata, drift, domains',
    );
    expect(result.stderr).toBe('63 errors, 1 warning in 52 files; 1 valid policy\n');
    expect(result.stdout + result.stderr).not.toContain('sekret-key-123');
    expect(connections).toBe(0);
  });

  it('needs no credentials and ignores an unreachable base URL', async () => {
    const result = await runCli(['validate', 'policies'], {
      cwd: EXAMPLES,
      env: { AUTOJOIN_BASE_URL: 'http://127.0.0.1:1', CI: 'true' },
      timeoutMs: 20_000,
    });
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '0 errors, 0 warnings in 4 files; 8 valid policies\n' });
  });

  it('exits 0 when there are only warnings, and prints them', async () => {
    const result = await runCli(['validate', '.'], { cwd: fixture('good'), env: { AUTOJOIN_BASE_URL: baseUrl } });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      `nested/warnings.autojoin.yaml:6:5: warning: ` +
      'eng.acme.com is a subdomain of acme.com; only addresses at exactly eng.acme.com match (list acme.com too if you meant it)\n' +
        // Issue 12: every IDN shown as punycode beside Unicode.
        'internationalized domains (punycode, then Unicode):\n  team/g-eng  xn--bcher-kva.de (bücher.de)\n',
    );
    expect(result.stderr).toBe('0 errors, 1 warning in 4 files; 5 valid policies\n');
    expect(connections).toBe(0);
  });

  it('--format json prints files, the policy count and the diagnostics', async () => {
    const result = await runCli(['validate', '--format', 'json', '15-webmail.autojoin.yaml', '38-empty.autojoin.yaml', '../good'], {
      cwd: fixture('bad'),
    });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as { files: string[]; policies: number; diagnostics: object[] };
    expect(report.files).toEqual([
      `${shown('bad')}15-webmail.autojoin.yaml`,
      `${shown('bad')}38-empty.autojoin.yaml`,
      `${shown('good')}autojoin.yml`,
      `${shown('good')}minimal.autojoin.yaml`,
      `${shown('good')}nested/warnings.autojoin.yaml`,
      `${shown('good')}teams.autojoin.yaml`,
    ]);
    expect(report.policies).toBe(5);
    expect(report.diagnostics).toEqual([
      expect.objectContaining({ file: `${shown('bad')}15-webmail.autojoin.yaml`, line: 6, column: 5, severity: 'error', code: 'webmail-domain' }),
      expect.objectContaining({ file: `${shown('bad')}38-empty.autojoin.yaml`, line: 1, column: 1, severity: 'error', code: 'empty-file' }),
      expect.objectContaining({ file: `${shown('good')}nested/warnings.autojoin.yaml`, line: 6, column: 5, severity: 'warning', code: 'subdomain' }),
    ]);
  });

  it('reports project file problems once, without cascading into every policy, and uses its defaults', async () => {
    const bad = await runCli(['validate'], { cwd: fixture('project-bad') });
    expect(bad.code).toBe(1);
    expect(bad.stdout.split('\n')[0]).toBe(
      `autojoin-sync.yaml:1:10: error: baseUrl: must start with https:// (http:// only for a loopback host)`,
    );
    expect(bad.stdout.split('\n').filter(Boolean).every((line) => line.startsWith('autojoin-sync.yaml:'))).toBe(true);
    expect(bad.stdout).not.toContain('missing required key');
    const good = await runCli(['validate', 'policies'], { cwd: fixture('project-defaults') });
    expect(good).toMatchObject({ code: 0, stdout: '' });
  });

  it('requires scopeType unless the project file sets defaults.scopeType, and then uses that type', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'autojoin-scopetype-'));
    try {
      await writeFile(path.join(dir, 'x.autojoin.yaml'), '# no scopeType\nscope: x\ncomponentId: cmp_1\ndomains: [acme.com]\n');
      const missing = await runCli(['validate'], { cwd: dir });
      expect(missing.code).toBe(1);
      expect(missing.stdout).toBe(
        'x.autojoin.yaml:2:1: error: missing required key "scopeType" ("default" when your system has no types, or set defaults.scopeType in autojoin-sync.yaml)\n',
      );
      await writeFile(path.join(dir, 'autojoin-sync.yaml'), 'defaults:\n  scopeType: workspace\n');
      expect(await runCli(['validate'], { cwd: dir })).toMatchObject({ code: 0, stdout: '' });
      const plan = await runCli(['plan', '--format', 'json'], { cwd: dir });
      expect(plan.code).toBe(0);
      expect((JSON.parse(plan.stdout) as { changes: { key: string }[] }).changes.map((change) => change.key)).toEqual(['workspace/x']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('fails with a clear message when there is nothing to validate', async () => {
    const empty = await mkdtemp(path.join(os.tmpdir(), 'autojoin-empty-'));
    try {
      const result = await runCli(['validate'], { cwd: empty });
      expect(result.code).toBe(1);
      expect(result.stderr).toBe('error: no policy files (autojoin.yaml, *.autojoin.yaml or .yml) under .; nothing was done. Check the path, or pass --allow-no-policies when that is intended (e.g. to prune every scope)\n');
      const missing = await runCli(['validate', 'nope'], { cwd: empty });
      expect(missing.code).toBe(1);
      expect(missing.stdout).toBe('nope:1:1: error: no such file or directory\n');
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });

  it('--help explains the command with examples', async () => {
    const result = await runCli(['validate', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: autojoin-sync validate [options] [paths...]');
    expect(result.stdout).toContain('$ autojoin-sync validate --format json');
    expect(result.stdout).toContain('It never contacts the service and needs no credentials');
  });
});
