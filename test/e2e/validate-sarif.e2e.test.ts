/**
 * `autojoin-sync validate --format sarif` as a user runs it (dist/cli.js): SARIF 2.1.0 on stdout,
 * valid against the OASIS schema (test/support/sarif.ts names its npm source) and GitHub code
 * scanning's subset, files named relative to the repository root from any directory, one rule per
 * check and per governance rule.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { commitAll } from '../support/git.js';
import { githubSubsetProblems, sarifSchemaValidator } from '../support/sarif.js';

let dir: string | undefined;

afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function repository(files: Record<string, string>): Promise<string> {
  dir = await mkdtemp(join(tmpdir(), 'autojoin-sarif-'));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  commitAll(dir);
  return dir;
}

describe('validate --format sarif', () => {
  it('prints SARIF 2.1.0 with URIs relative to the repository root, run from a subdirectory', async () => {
    const root = await repository({
      'autojoin-sync.yaml': 'rules:\n  - name: no-io\n    deny: ["*.io"]\n',
      'teams/eng/eng.autojoin.yaml': 'scope: eng\nscopeType: team\ncomponentId: c\ndomains:\n  - gmail.com\n  - mail.acme.com\n',
      // A policy with an error is not checked against the rules: the rule's finding is in a valid one.
      'teams/ops.autojoin.yaml': 'scope: ops\nscopeType: team\ncomponentId: c\ndomains:\n  - contractor.io\n',
    });
    const run = await runCli(['validate', '--format', 'sarif', '.'], { cwd: join(root, 'teams') });
    expect(run.code).toBe(1);
    const log = JSON.parse(run.stdout) as { runs: { tool: { driver: { rules: { id: string }[] } }; results: { ruleId: string; level: string; locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }[] }[] }[] };
    expect(sarifSchemaValidator()(log), JSON.stringify(sarifSchemaValidator().errors)).toBe(true);
    expect(githubSubsetProblems(log)).toEqual([]);
    const results = log.runs[0]?.results ?? [];
    expect(results.map((result) => [result.ruleId, result.level, result.locations[0]?.physicalLocation.artifactLocation.uri, result.locations[0]?.physicalLocation.region.startLine])).toEqual([
      ['webmail-domain', 'error', 'teams/eng/eng.autojoin.yaml', 5],
      ['rule/no-io', 'error', 'teams/ops.autojoin.yaml', 5],
      ['subdomain', 'warning', 'teams/eng/eng.autojoin.yaml', 6],
    ]);
  });

  it('a clean repository is a run with no results', async () => {
    const root = await repository({ 'a.autojoin.yaml': 'scope: a\nscopeType: team\ncomponentId: c\ndomains:\n  - acme.com\n' });
    const run = await runCli(['validate', '--format', 'sarif'], { cwd: root });
    expect(run.code).toBe(0);
    const log = JSON.parse(run.stdout) as { runs: { results: unknown[] }[] };
    expect(log.runs[0]?.results).toEqual([]);
    expect(sarifSchemaValidator()(log)).toBe(true);
  });
});
