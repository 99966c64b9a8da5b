/**
 * Paths printed from inside a subfolder (design.md, "One answer from any directory"; issue 50):
 * `teams/eng$ autojoin-sync validate .` names each file relative to the working directory, a path
 * the user can copy there; the machine formats (JSON, SARIF, plans) keep the repository root's.
 * So do who's and inventory's errors, who's file:line, fmt's list and the embedded emulator's preamble.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../support/in-process.js';
import { commitAll } from '../support/git.js';
import { tempDirOfTest } from '../support/temp.js';
import { monorepoCli, monorepoOfTest } from '../support/monorepo-run.js';

const BAD = 'scope: eng\nscopeType: team\ncomponentId: c1\ndomains:\n  - gmail.com\n  - acme.com\n';
const GOOD = 'scope: ops\nscopeType: team\ncomponentId: c1\ndomains:\n  - ops.example\n';

/** A repository with teams/eng/eng.autojoin.yaml (an error at 5:5) and teams/ops.autojoin.yaml. */
function repository(): string {
  const root = tempDirOfTest('subfolder-paths-');
  mkdirSync(join(root, 'teams', 'eng'), { recursive: true });
  writeFileSync(join(root, 'teams', 'eng', 'eng.autojoin.yaml'), BAD);
  writeFileSync(join(root, 'teams', 'ops.autojoin.yaml'), GOOD);
  commitAll(root);
  return root;
}

/** A repository whose project file sits at its root and whose policy files are valid: teams/eng/eng.autojoin.yaml and teams/ops.autojoin.yaml. */
function validRepository(): string {
  const root = tempDirOfTest('subfolder-paths-');
  mkdirSync(join(root, 'teams', 'eng'), { recursive: true });
  writeFileSync(join(root, 'autojoin-sync.yaml'), 'defaults:\n  componentId: c1\n');
  writeFileSync(join(root, 'teams', 'eng', 'eng.autojoin.yaml'), 'scope: eng\nscopeType: team\ndomains:\n  - eng.example\n');
  writeFileSync(join(root, 'teams', 'ops.autojoin.yaml'), GOOD);
  commitAll(root);
  return root;
}

const ENV = { AUTOJOIN_BASE_URL: undefined, AUTOJOIN_API_KEY: undefined, VORTEX_API_KEY: undefined, GITHUB_ACTIONS: undefined };

describe('paths printed from a subfolder are relative to it', () => {
  it('validate: the file:line of a finding is the one to open from here, from the root the root\'s', async () => {
    const root = repository();
    const here = await runInProcess(['validate', '.', '../ops.autojoin.yaml'], { cwd: join(root, 'teams', 'eng'), env: ENV });
    expect(here.code).toBe(1);
    expect(here.stdout).toMatch(/^eng\.autojoin\.yaml:5:5: error: gmail\.com is a webmail domain/mu);
    expect(here.stdout + here.stderr).not.toContain('teams/eng/eng.autojoin.yaml');
    const atRoot = await runInProcess(['validate', 'teams'], { cwd: root, env: ENV });
    expect(atRoot.stdout).toMatch(/^teams\/eng\/eng\.autojoin\.yaml:5:5: error: gmail\.com/mu);
  });

  it('validate --format json and sarif keep the path from the repository root', async () => {
    const root = repository();
    const json = await runInProcess(['validate', '--format', 'json', '.'], { cwd: join(root, 'teams', 'eng'), env: ENV });
    expect(json.stdout).toContain('"teams/eng/eng.autojoin.yaml"');
    const sarif = await runInProcess(['validate', '--format', 'sarif', '.'], { cwd: join(root, 'teams', 'eng'), env: ENV });
    expect(sarif.stdout).toContain('"uri": "teams/eng/eng.autojoin.yaml"');
  });

  it('plan: the diagnostics printed before it stops name the file from here', async () => {
    const root = repository();
    const plan = await runInProcess(['plan', '--emulator', '.'], { cwd: join(root, 'teams', 'eng'), env: ENV });
    expect(plan.code).toBe(1);
    expect(plan.stderr).toMatch(/^eng\.autojoin\.yaml:5:5: error: gmail\.com is a webmail domain/mu);
    expect(plan.stderr).not.toContain('teams/eng/eng.autojoin.yaml');
  });

  it('who and inventory: the errors that stop them name the file from here', async () => {
    const root = repository();
    for (const args of [['who', 'acme.com', '.'], ['inventory', '.']]) {
      const run = await runInProcess(args, { cwd: join(root, 'teams', 'eng'), env: ENV });
      expect(run.code, args[0]).toBe(1);
      expect(run.stderr, args[0]).toMatch(/^eng\.autojoin\.yaml:5:5: error: gmail\.com is a webmail domain/mu);
      expect(run.stderr, args[0]).not.toContain('teams/eng/eng.autojoin.yaml');
    }
  });

  it("who: each entry's file:line is the one to open from here; --format json keeps the root's", async () => {
    const root = validRepository();
    const here = await runInProcess(['who', 'ops.example', '..'], { cwd: join(root, 'teams', 'eng'), env: ENV });
    expect(here.code, here.stderr).toBe(0);
    expect(here.stdout).toContain('team/ops  ../ops.autojoin.yaml:5');
    const json = await runInProcess(['who', 'ops.example', '..', '--format', 'json'], { cwd: join(root, 'teams', 'eng'), env: ENV });
    expect(json.stdout).toContain('"file": "teams/ops.autojoin.yaml"');
  });

  it("the embedded emulator's preamble names its state and the project file from here", async () => {
    const root = validRepository();
    const plan = await runInProcess(['plan', '--emulator', '--verbose', '.'], { cwd: join(root, 'teams', 'eng'), env: ENV });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stderr).toMatch(/^using project file \.\.\/\.\.\/autojoin-sync\.yaml; service host 127\.0\.0\.1:\d+ \(embedded emulator, state in \.\.\/\.\.\/\.autojoin-sync\/emulator\.json\)$/mu);
    expect(plan.stderr).toContain('note: as asked; using the embedded emulator (state in ../../.autojoin-sync/emulator.json)');
    expect(existsSync(join(root, 'teams', 'eng', '../../.autojoin-sync/emulator.json'))).toBe(true);
    const atRoot = await runInProcess(['plan', '--emulator', 'teams'], { cwd: root, env: ENV });
    expect(atRoot.stderr).toContain('using project file autojoin-sync.yaml; service host');
    expect(atRoot.stderr).toContain('(embedded emulator, state in .autojoin-sync/emulator.json)');
  });

  it('fmt --check lists the files to reformat from here; --diff names them from the root, as git does', async () => {
    const root = validRepository();
    writeFileSync(join(root, 'teams', 'eng', 'eng.autojoin.yaml'), 'scopeType: team\nscope: eng\ndomains:\n  - eng.example\n');
    const list = await runInProcess(['fmt', '--check', '.'], { cwd: join(root, 'teams', 'eng'), env: ENV });
    expect(list.code).toBe(1);
    expect(list.stdout).toBe('eng.autojoin.yaml\n');
    const diff = await runInProcess(['fmt', '--check', '--diff', '.'], { cwd: join(root, 'teams', 'eng'), env: ENV });
    expect(diff.stdout).toContain('--- a/teams/eng/eng.autojoin.yaml');
  });
});

describe('a file named inside a message is named from the same place as the line it is on', () => {
  const SALES_TOO = { 'teams/sales/sales.autojoin.yaml': 'scope: acme-sales\ndomains:\n  - acme-sales.io\n---\nscope: acme-eng\ndomains:\n  - acme-sales.io\n' };
  const TAIL = '; a scope may have only one policy';

  it('validate from a team folder: both declarations of a scope, each naming the other from here', async () => {
    const dir = monorepoOfTest(SALES_TOO);
    const here = await monorepoCli(join(dir, 'teams', 'eng'), 'validate', '.', '../sales');
    expect(here.code).toBe(1);
    expect(here.stdout.split('\n').filter((line) => line.includes('duplicate scope'))).toEqual([
      `policies/eng.autojoin.yaml:1:1: error: duplicate scope team/acme-eng: also declared at ../sales/sales.autojoin.yaml:5:1${TAIL}`,
      `../sales/sales.autojoin.yaml:5:1: error: duplicate scope team/acme-eng: also declared at policies/eng.autojoin.yaml:1:1${TAIL}`,
    ]);
  });

  it('validate at the root names both from the root, as before; JSON from a team folder keeps the root in the message, and only the message', async () => {
    const dir = monorepoOfTest(SALES_TOO);
    const atRoot = await monorepoCli(dir, 'validate');
    expect(atRoot.stdout).toContain(`teams/eng/policies/eng.autojoin.yaml:1:1: error: duplicate scope team/acme-eng: also declared at teams/sales/sales.autojoin.yaml:5:1${TAIL}\n`);
    expect(atRoot.stdout).toContain(`teams/sales/sales.autojoin.yaml:5:1: error: duplicate scope team/acme-eng: also declared at teams/eng/policies/eng.autojoin.yaml:1:1${TAIL}\n`);
    const json = await monorepoCli(join(dir, 'teams', 'eng'), 'validate', '--format', 'json', '.', '../sales');
    const report = JSON.parse(json.stdout) as { diagnostics: Record<string, unknown>[] };
    expect(report.diagnostics.filter((d) => d.code === 'duplicate-scope')).toEqual([
      { file: 'teams/eng/policies/eng.autojoin.yaml', line: 1, column: 1, severity: 'error', code: 'duplicate-scope', message: `duplicate scope team/acme-eng: also declared at teams/sales/sales.autojoin.yaml:5:1${TAIL}` },
      { file: 'teams/sales/sales.autojoin.yaml', line: 5, column: 1, severity: 'error', code: 'duplicate-scope', message: `duplicate scope team/acme-eng: also declared at teams/eng/policies/eng.autojoin.yaml:1:1${TAIL}` },
    ]);
  });

  it('plan of two projects from a team folder prints the scope both declare, from here, before it stops', async () => {
    const dir = monorepoOfTest(SALES_TOO);
    const plan = await monorepoCli(join(dir, 'teams', 'eng'), 'plan', '--emulator', '.', '../sales');
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(`\npolicies/eng.autojoin.yaml:1:1: error: duplicate scope team/acme-eng: also declared at ../sales/sales.autojoin.yaml:5:1${TAIL}\n`);
    expect(plan.stderr).toContain(`\n../sales/sales.autojoin.yaml:5:1: error: duplicate scope team/acme-eng: also declared at policies/eng.autojoin.yaml:1:1${TAIL}\n`);
    expect(plan.stderr).toContain('error: 2 errors in the policy files; nothing was planned (see above');
  });

  it('validate: a policy file in a submodule names the submodule from here in both places', async () => {
    const root = validRepository();
    mkdirSync(join(root, 'teams', 'vendor'));
    writeFileSync(join(root, 'teams', 'vendor', '.git'), 'gitdir: ../../.git/modules/vendor\n');
    writeFileSync(join(root, 'teams', 'vendor', 'v.autojoin.yaml'), GOOD);
    const here = await runInProcess(['validate', '..'], { cwd: join(root, 'teams', 'eng'), env: ENV });
    expect(here.code).toBe(1);
    expect(here.stdout.split('\n')).toContain(
      "../vendor/v.autojoin.yaml:1:1: error: policy file inside the git submodule ../vendor: its history is not this repository's, so pruning could never see it deleted; move the file into this repository, or leave ../vendor out of the paths",
    );
  });

  it("import's refusal of a scope another team declares names its file from here", async () => {
    const dir = monorepoOfTest();
    const result = await monorepoCli(join(dir, 'teams'), 'import', '--scope', 'team/acme-sales', '--out', '.', '--component-id', 'cmp_x');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: sales\/sales\.autojoin\.yaml:1:1: team\/acme-sales is declared here already$/mu);
  });
});
