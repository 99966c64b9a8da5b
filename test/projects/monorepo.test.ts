/**
 * Many projects, one run (design: "Many projects, one run", issue 47): the three-team monorepo of
 * test/support/monorepo.ts through the CLI in-process, at its root, from a team folder and with
 * -C from outside. The spawned twins are in test/e2e/monorepo.e2e.test.ts.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../support/in-process.js';
import { MONOREPO_ENV as env, monorepoCli, monorepoOfTest } from '../support/monorepo-run.js';
import { MONOREPO_FILES } from '../support/monorepo.js';
import { startDnsFixture } from '../support/dns.js';
import { defined } from '../support/defined.js';
import { tempDirOfTest } from '../support/temp.js';
import { DEFAULT_ACCESS_TOKEN, emptyData, startEmulator } from '../../src/emulator/index.js';

const monorepo = monorepoOfTest;
const cli = monorepoCli;

describe('the three-team monorepo fixture', () => {
  it('each team validates under its own project file, from its folder', async () => {
    const dir = monorepo();
    for (const team of ['eng', 'ops', 'sales']) {
      const result = await cli(path.join(dir, 'teams', team), 'validate');
      expect(result.stderr).toContain('0 errors, 0 warnings in 1 file');
      expect(result.code, result.stderr + result.stdout).toBe(0);
    }
  });
});

describe('offline commands at the root of the monorepo', () => {
  it('validate reads each file under its own project file: defaults, rules, and no other team rules', async () => {
    const dir = monorepo();
    const result = await cli(dir, 'validate');
    expect(result.stderr).toContain('0 errors, 0 warnings in 3 files; 4 valid policies');
    expect(result.code, result.stderr).toBe(0);
  });

  it("a team's rules judge its own files: eng's allow-list refuses a domain in eng's folder, not in sales'", async () => {
    const dir = monorepo({ 'teams/eng/policies/more.autojoin.yaml': 'scope: acme-more\ndomains:\n  - acme-sales.io\n' });
    const result = await cli(dir, 'validate');
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^teams\/eng\/policies\/more\.autojoin\.yaml:3:5: error: .*eng domains only/mu);
    expect(result.stdout).not.toContain('teams/sales/');
  });

  it("a team's rule that counts scopes counts that team's alone", async () => {
    const rule = '  - name: one scope a domain\n    maxScopesPerDomain: 1\n';
    const sales = 'owner: sales\ndefaults:\n  componentId: cmp_sales\n  scopeType: team\nrules:\n' + rule;
    const dir = monorepo({ 'teams/sales/autojoin-sync.yaml': sales, 'teams/sales/sales.autojoin.yaml': 'scope: acme-sales\ndomains:\n  - acme.com\n' });
    // eng declares acme.com twice; sales once: sales' rule sees one scope.
    const result = await cli(dir, 'validate');
    expect(result.stdout + result.stderr).not.toContain('one scope a domain');
    expect(result.code, result.stdout).toBe(0);
  });

  it("validate checks over DNS the files of a project whose project file asks for it, at that project's resolver, and no other's", async () => {
    const fixture = await startDnsFixture();
    try {
      const ops = `${MONOREPO_FILES['teams/ops/autojoin-sync.yaml'] ?? ''}dns:\n  check: true\n  servers: ["${fixture.server}"]\n`;
      const dir = monorepo({
        'teams/ops/autojoin-sync.yaml': ops,
        'teams/ops/dns.autojoin.yaml': 'scope: ops-dns\ndomains:\n  - nx.test\n',
        'teams/sales/dns.autojoin.yaml': 'scope: sales-dns\ndomains:\n  - nx.test\n',
      });
      const result = await cli(dir, 'validate');
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(/^teams\/ops\/dns\.autojoin\.yaml:3:5: error: .*nx\.test/mu);
      expect(result.stdout).not.toContain('teams/sales/dns.autojoin.yaml');
    } finally {
      await fixture.stop();
    }
  });

  it('fmt --check, who, inventory and the completion of --scope see every team', async () => {
    const dir = monorepo();
    expect((await cli(dir, 'fmt', '--check')).code).toBe(0);
    const who = await cli(dir, 'who', 'acme.com', 'acme-sales.io');
    expect(who.code, who.stderr).toBe(0);
    expect(who.stdout).toContain('team/acme-eng');
    expect(who.stdout).toContain('team/acme-sales');
    const inventory = await cli(dir, 'inventory', '--format', 'csv');
    expect(inventory.code, inventory.stderr).toBe(0);
    expect(inventory.stdout).toContain('workspace,ops-oncall');
    expect(inventory.stdout).toContain('team,acme-sales');
    const keys = await cli(dir, 'completion', '--list-scopes');
    expect(keys.stdout.split('\n').filter(Boolean).sort()).toEqual(['team/acme-eng', 'team/acme-platform', 'team/acme-sales', 'workspace/ops-oncall']);
  });
});

describe('a scope declared by two teams', () => {
  it('is an error at both file:line:col, whichever project each file is in', async () => {
    const dir = monorepo({ 'teams/sales/sales.autojoin.yaml': 'scope: acme-sales\ndomains:\n  - acme-sales.io\n---\nscope: acme-eng\ndomains:\n  - acme-sales.io\n' });
    const result = await cli(dir, 'validate');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('teams/eng/policies/eng.autojoin.yaml:1:1: error: duplicate scope team/acme-eng: also declared at teams/sales/sales.autojoin.yaml:5:1');
    expect(result.stdout).toContain('teams/sales/sales.autojoin.yaml:5:1: error: duplicate scope team/acme-eng: also declared at teams/eng/policies/eng.autojoin.yaml:1:1');
    // Each team alone passes: only the run of both sees it.
    expect((await cli(path.join(dir, 'teams/eng'), 'validate')).code).toBe(0);
  });
});

describe('commands that take one project at a time', () => {
  it.each(['adopt'])('%s at the root names itself and how to run each project, in the CLI\'s words', async (command) => {
    const dir = monorepo();
    const result = await cli(dir, command);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${command} takes one project at a time, and the paths of this run hold 3: teams/eng/autojoin-sync.yaml (1 policy file), teams/ops/autojoin-sync.yaml (1 policy file), teams/sales/autojoin-sync.yaml (1 policy file)`);
    expect(result.stderr).toContain(`run ${command} once per project: --project teams/eng/autojoin-sync.yaml; --project teams/ops/autojoin-sync.yaml; --project teams/sales/autojoin-sync.yaml`);
  });

  it.each([['the root', '.'], ['a folder holding the teams', 'teams']])('with -C %s from outside the repository, the refusal names each project as it works with that -C', async (_where, into) => {
    const dir = monorepo();
    const outside = tempDirOfTest('autojoin-outside-');
    const chdir = path.join(dir, into);
    const refused = await cli(outside, '-C', chdir, 'adopt');
    expect(refused.code).toBe(1);
    const named = [...refused.stderr.matchAll(/--project (\S+?)(?:;|\s|$)/gu)].map((match) => defined(match[1]));
    expect(named).toHaveLength(3);
    // As printed: the same -C, with each --project given, runs that project alone (never the refusal again, never a missing file).
    for (const project of named) {
      const alone = await cli(outside, '-C', chdir, '--project', project, 'validate');
      expect(alone.code, `${project}: ${alone.stderr}`).toBe(0);
      expect(alone.stderr).not.toContain('takes one project at a time');
    }
  });

  it('--project at the root plans that team alone, counting the files it skips; with --plan it is an error', async () => {
    const dir = monorepo();
    const result = await cli(dir, '--project', 'teams/eng/autojoin-sync.yaml', 'plan', '--out', 'eng.plan.json');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr.split('\n').filter((line) => line.includes('skipped'))).toEqual(['notice: --project teams/eng/autojoin-sync.yaml: 2 policy files of other projects skipped']);
    expect(result.stdout).toContain('team/acme-eng');
    expect(result.stdout).not.toMatch(/ops-oncall|acme-sales/u);
    const saved = await cli(dir, 'apply', '--plan', 'eng.plan.json', '--project', 'teams/eng/autojoin-sync.yaml', '--yes');
    expect(saved.code).toBe(1);
    expect(saved.stderr).toContain('--project selects the policy files a run reads; a saved plan (--plan) records its own project file: leave --project out');
  });

  it('from a team folder, plan reads that team alone', async () => {
    const dir = monorepo();
    const result = await cli(path.join(dir, 'teams/ops'), 'plan');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('using project file autojoin-sync.yaml;');
    expect(result.stdout).toContain('workspace/ops-oncall');
    expect(result.stdout).not.toContain('acme-eng');
  });
});

describe('commands that read no policy file, and import, at the root', () => {
  it('presets works at the root of the monorepo', async () => {
    const dir = monorepo();
    const result = await cli(dir, 'presets', 'email', 'list');
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toBeInstanceOf(Array);
  });

  it("import's check finds a scope another team declares, at its file:line:col, under that team's defaults", async () => {
    const dir = monorepo();
    const result = await cli(dir, 'import', '--scope', 'team/acme-sales', '--out', '.', '--component-id', 'cmp_x');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('teams/sales/sales.autojoin.yaml:1:1: team/acme-sales is declared here already');
  });
});

describe('one target per run', () => {
  const withBaseUrl = (team: string, url: string): Record<string, string> => ({ [`teams/${team}/autojoin-sync.yaml`]: `${MONOREPO_FILES[`teams/${team}/autojoin-sync.yaml`] ?? ''}baseUrl: ${url}\n` });

  it('two projects naming different services are exit 1 before any request, naming both files', async () => {
    const emulator = await startEmulator({ port: 0, data: emptyData() });
    try {
      const dir = monorepo({ ...withBaseUrl('eng', emulator.url), ...withBaseUrl('ops', 'http://127.0.0.1:9/') });
      const result = await runInProcess(['presets', 'email', 'list'], { cwd: dir, env: { ...env, AUTOJOIN_ACCESS_TOKEN: DEFAULT_ACCESS_TOKEN } });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`the project files of this run name different services: teams/eng/autojoin-sync.yaml (baseUrl ${emulator.url}) and teams/ops/autojoin-sync.yaml (baseUrl http://127.0.0.1:9/)`);
      expect(emulator.requests).toHaveLength(0);
    } finally {
      await emulator.close();
    }
  });

  it('the same baseUrl in every project that sets one is the target; a flag or environment target sets different ones aside with one notice', async () => {
    const emulator = await startEmulator({ port: 0, data: emptyData() });
    try {
      const token = { ...env, AUTOJOIN_ACCESS_TOKEN: DEFAULT_ACCESS_TOKEN };
      const same = monorepo({ ...withBaseUrl('eng', emulator.url), ...withBaseUrl('sales', `${emulator.url}/`) });
      const agreed = await runInProcess(['presets', 'email', 'list'], { cwd: same, env: token });
      expect(agreed.code, agreed.stderr).toBe(0);
      expect(emulator.requests.length).toBeGreaterThan(0);
      const differ = monorepo({ ...withBaseUrl('eng', 'http://127.0.0.1:9/'), ...withBaseUrl('ops', 'http://127.0.0.1:10/') });
      const overridden = await runInProcess(['presets', 'email', 'list'], { cwd: differ, env: { ...token, AUTOJOIN_BASE_URL: emulator.url } });
      expect(overridden.code, overridden.stderr).toBe(0);
      const notices = overridden.stderr.split('\n').filter((line) => line.includes('is not used') || line.includes('are not used'));
      expect(notices).toEqual(["the baseUrl of teams/eng/autojoin-sync.yaml, teams/ops/autojoin-sync.yaml are not used: this run's one target is AUTOJOIN_BASE_URL's"]);
    } finally {
      await emulator.close();
    }
  });
});

describe('the embedded emulator keeps one state per run, at the repository root', () => {
  it('every team meets one state; a state file release 4 left beside a project file is never read, and said once', async () => {
    const dir = monorepo();
    mkdirSync(path.join(dir, 'teams/eng/.autojoin-sync'), { recursive: true });
    // Not even JSON: read, it would stop the run.
    writeFileSync(path.join(dir, 'teams/eng/.autojoin-sync/emulator.json'), 'left by release 4');
    // Named from teams/eng, where the run starts.
    const note = '.autojoin-sync/emulator.json is the embedded emulator\'s state of release 4, beside its project file; it is no longer read (the state is ../../.autojoin-sync/emulator.json), and can be deleted';
    const eng = await cli(path.join(dir, 'teams/eng'), 'apply', '--yes');
    expect(eng.code, eng.stderr).toBe(0);
    expect(eng.stderr.split('\n').filter((line) => line.includes('release 4'))).toEqual([`note: ${note}`]);
    expect(existsSync(path.join(dir, '.autojoin-sync/emulator.json'))).toBe(true);
    // ops, from its own folder, meets the state eng wrote: eng's scopes are there, in one state.
    const ops = await cli(dir, '-C', 'teams/ops', 'apply', '--yes');
    expect(ops.code, ops.stderr).toBe(0);
    expect(ops.stderr).not.toContain('release 4');
    const state = JSON.parse(readFileSync(path.join(dir, '.autojoin-sync/emulator.json'), 'utf8')) as { scopes: Record<string, unknown> };
    expect(Object.keys(state.scopes).sort()).toEqual(['team/acme-eng', 'team/acme-platform', 'workspace/ops-oncall']);
    const again = await cli(path.join(dir, 'teams/eng'), 'plan', '--detailed-exitcode');
    expect(again.code, again.stdout).toBe(0);
    expect(again.stderr).not.toContain('release 4');
  });

  it('at the root of the monorepo, a run of three projects says it once of the state file release 4 left, and never reads it', async () => {
    const dir = monorepo();
    mkdirSync(path.join(dir, 'teams/ops/.autojoin-sync'), { recursive: true });
    writeFileSync(path.join(dir, 'teams/ops/.autojoin-sync/emulator.json'), 'left by release 4');
    const applied = await cli(dir, 'apply', '--yes');
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stderr.split('\n').filter((line) => line.includes('release 4'))).toEqual([
      'note: teams/ops/.autojoin-sync/emulator.json is the embedded emulator\'s state of release 4, beside its project file; it is no longer read (the state is .autojoin-sync/emulator.json), and can be deleted',
    ]);
    expect(readFileSync(path.join(dir, 'teams/ops/.autojoin-sync/emulator.json'), 'utf8')).toBe('left by release 4');
    const state = JSON.parse(readFileSync(path.join(dir, '.autojoin-sync/emulator.json'), 'utf8')) as { scopes: Record<string, unknown> };
    expect(Object.keys(state.scopes).sort()).toEqual(['team/acme-eng', 'team/acme-platform', 'team/acme-sales', 'workspace/ops-oncall']);
  });
});

describe("adopt in a team's folder, under that team's project file", () => {
  it("from another folder of the team: a domain the team's own rule refuses is not adopted, nothing is written, and the reason names the file from there", async () => {
    const dir = monorepo();
    const apiKey = 'sk-adopt-team';
    const emulator = await startEmulator({ port: 0, data: emptyData(), apiKey });
    try {
      const service = { ...env, AUTOJOIN_BASE_URL: emulator.url, AUTOJOIN_API_KEY: apiKey };
      const team = path.join(dir, 'teams', 'eng');
      expect((await runInProcess(['apply', '--yes'], { cwd: team, env: service })).code).toBe(0);
      // An admin adds a domain eng's allow-list refuses.
      const edit = await fetch(`${emulator.url}/api/v1/invitations/autojoin`, {
        method: 'POST',
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ scope: 'acme-platform', scopeType: 'team', componentId: 'cmp_eng', domains: ['acme.com', 'elsewhere.example'] }),
      });
      expect(edit.status).toBe(200);
      mkdirSync(path.join(team, 'sub'));
      const adopt = await runInProcess(['adopt', '../policies'], { cwd: path.join(team, 'sub'), env: service });
      expect(adopt.code, adopt.stderr).toBe(0);
      expect(adopt.stderr).toMatch(/not adopted: team\/acme-platform: the file would not pass validate: \.\.\/policies\/eng\.autojoin\.yaml:\d+:\d+: error: .*eng domains only/u);
      expect(readFileSync(path.join(team, 'policies', 'eng.autojoin.yaml'), 'utf8')).toBe(MONOREPO_FILES['teams/eng/policies/eng.autojoin.yaml']);
    } finally {
      await emulator.close();
    }
  });
});
