import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import {
  cli,
  cliOnTty,
  expectFileHasNoSecret,
  liveDomains,
  policy,
  posts,
  setLive,
  startTestEmulator,
  tempProject,
  useEmulatorProject,
  writeFiles,
  type TempProject,
} from './support.js';
import { requires, SCRIPT } from '../support/requires.js';

let emulator: Emulator;
let project: TempProject;
useEmulatorProject(() => ({ emulator, project }));

async function setup(files: Record<string, string>, live: Record<string, string[]> = {}): Promise<void> {
  emulator = await startTestEmulator();
  for (const [scope, domains] of Object.entries(live)) await setLive(emulator, scope, domains);
  emulator.requests.length = 0;
  project = await tempProject(files);
}

describe('plan and apply against the emulator', () => {
  it('creates, updates and clears, leaves a matching scope alone, and then has nothing to do', async () => {
    await setup(
      {
        'new.autojoin.yaml': policy('new', ['n2.example', 'n1.example']),
        'upd.autojoin.yaml': policy('upd', ['a.example', 'c.example']),
        'clr.autojoin.yaml': policy('clr', []),
        'same.autojoin.yaml': policy('same', ['s.example']),
      },
      { upd: ['a.example', 'b.example'], clr: ['x.example'], same: ['s.example'] },
    );
    const planned = await cli(['plan', '--detailed-exitcode'], { cwd: project.dir, emulator });
    expect(planned.code).toBe(2);
    expect(planned.stdout).toContain('1 to create, 1 to update, 1 to clear, 1 unchanged.');
    expect(planned.stdout).toMatch(/\+ c\.example/);
    expect(planned.stdout).toMatch(/- b\.example/);
    expect(planned.stdout).toMatch(/- x\.example/);
    expect(posts(emulator)).toBe(0);

    const applied = await cli(['apply', '--yes'], { cwd: project.dir, emulator });
    expect(applied.stderr).not.toMatch(/error|warning/);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('Applied 3, failed 0, skipped 0.');
    const data = emulator.data();
    expect(liveDomains(data, 'new')).toEqual(['n1.example', 'n2.example']);
    expect(liveDomains(data, 'upd')).toEqual(['a.example', 'c.example']);
    expect(liveDomains(data, 'clr')).toBeNull();
    expect(liveDomains(data, 'same')).toEqual(['s.example']);
    expect(posts(emulator)).toBe(3);

    const again = await cli(['plan', '--detailed-exitcode'], { cwd: project.dir, emulator });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('No changes. 4 scopes match their policy files.');
  });

  it('shows no change for case, order and trailing dots', async () => {
    await setup(
      { 'team.autojoin.yaml': policy('norm', ['Beta.ORG.', 'ACME.com']) },
      { norm: ['acme.com', 'beta.org'] },
    );
    const planned = await cli(['plan', '--detailed-exitcode'], { cwd: project.dir, emulator });
    expect(planned.code).toBe(0);
    expect(planned.stdout).toContain('No changes.');
  });

  it('exits 1 with file:line:col on an invalid policy file and reads nothing', async () => {
    await setup({ 'bad.autojoin.yaml': policy('bad', ['acme.com', 'gmail.com']) });
    const result = await cli(['plan'], { cwd: project.dir, emulator });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^bad\.autojoin\.yaml:\d+:\d+: error: .*gmail\.com/m);
    expect(result.stdout).toBe('');
    expect(emulator.requests).toEqual([]);
  });

  it('needs --yes off a terminal, and writes nothing without it', async () => {
    await setup({ 'a.autojoin.yaml': policy('a', ['a.example']) });
    const result = await cli(['apply'], { cwd: project.dir, emulator });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('pass --yes');
    expect(result.stdout).toContain('1 to create');
    expect(posts(emulator)).toBe(0);
  });

  it('asks on a terminal: "n" writes nothing, "yes" applies', async (context) => {
    requires(context, SCRIPT);
    await setup({ 'a.autojoin.yaml': policy('a', ['a.example']) });
    const declined = await cliOnTty(['apply'], { cwd: project.dir, emulator, input: 'n\n' });
    expect(declined.output).toContain("Apply these changes? Only 'yes' will be accepted to approve.");
    expect(declined.output).toContain('Apply cancelled (only `yes` approves); nothing was written.');
    expect(declined.code).toBe(1);
    expect(posts(emulator)).toBe(0);
    const accepted = await cliOnTty(['apply'], { cwd: project.dir, emulator, input: 'yes\n' });
    expect(accepted.output).toContain('Applied 1, failed 0, skipped 0.');
    expect(accepted.code).toBe(0);
    expect(liveDomains(emulator.data(), 'a')).toEqual(['a.example']);
  });

  it('on a terminal, Ctrl-C or Ctrl-D at the prompt cancels and writes nothing', async (context) => {
    requires(context, SCRIPT);
    await setup({ 'a.autojoin.yaml': policy('a', ['a.example']) });
    for (const key of ['\x03', '\x04']) {
      const result = await cliOnTty(['apply'], { cwd: project.dir, emulator, input: key, typeAfter: 'Enter a value:' });
      expect(result.output).toContain('Apply cancelled (only `yes` approves); nothing was written.');
      expect(result.code).toBe(1);
    }
    expect(posts(emulator)).toBe(0);
  });

  it('ends with "No changes." and exit 0 when there is nothing to do, even without --yes', async () => {
    await setup({ 'a.autojoin.yaml': policy('a', ['a.example']) }, { a: ['a.example'] });
    const result = await cli(['apply'], { cwd: project.dir, emulator });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('No changes.');
    expect(posts(emulator)).toBe(0);
  });

  it('refuses a plan over --max-removals with exit 3, naming the limit; the flag beats the project file', async () => {
    await setup(
      {
        'autojoin-sync.yaml': 'safety:\n  maxRemovals: 1\n',
        'a.autojoin.yaml': policy('a', ['a.example']),
      },
      { a: ['a.example', 'b.example', 'c.example', 'd.example'] },
    );
    const refused = await cli(['apply', '--yes'], { cwd: project.dir, emulator });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('removes 3 domains');
    expect(refused.stderr).toContain('--max-removals 3');
    expect(posts(emulator)).toBe(0);

    const lowered = await cli(['apply', '--yes', '--max-removals', '2'], { cwd: project.dir, emulator });
    expect(lowered.code).toBe(3);
    const allowed = await cli(['apply', '--yes', '--max-removals', '3'], { cwd: project.dir, emulator });
    expect(allowed.code).toBe(0);
    expect(liveDomains(emulator.data(), 'a')).toEqual(['a.example']);
  });

  it('writes text, markdown and json, and a saved plan without the key', async () => {
    await setup({ 'a.autojoin.yaml': policy('a', ['a.example'], { scopeName: 'Team A' }) }, { a: ['z.example'] });
    const json = await cli(['plan', '--format', 'json', '--out', 'plan.json'], { cwd: project.dir, emulator });
    expect(json.code).toBe(0);
    const document = JSON.parse(json.stdout) as { changes: { key: string; kind: string; after: string[] }[]; target: string };
    expect(document.changes).toMatchObject([{ key: 'team/a', kind: 'update', after: ['a.example'] }]);
    expect(document.target).toBe(emulator.url);
    const saved = JSON.parse(await readFile(join(project.dir, 'plan.json'), 'utf8')) as unknown;
    expect(saved).toEqual(document);
    await expectFileHasNoSecret(join(project.dir, 'plan.json'));

    const markdown = await cli(['plan', '--format', 'markdown'], { cwd: project.dir, emulator });
    expect(markdown.stdout).toContain('<details>');
    expect(markdown.stdout).toContain('```diff');
  });

  it('reads through the by-scope listing when asked', async () => {
    await setup({ 'a.autojoin.yaml': policy('a', ['a.example']) }, { a: ['a.example'] });
    const result = await cli(['plan', '--listing', 'by-scope'], { cwd: project.dir, emulator });
    expect(result.code).toBe(0);
    // Real listings carry no domains: an active autojoin invitation needs call 2b as well.
    expect(emulator.requests.map((r) => r.path.split('?')[0])).toEqual(['/api/v1/invitations/by-scope/team/a', '/api/v1/invitations/by-scope/team/a/autojoin']);
  });

  it('splits scopes into shards whose union is the whole plan', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 12; i++) files[`s${i}.autojoin.yaml`] = policy(`s${i}`, [`s${i}.example`]);
    await setup(files);
    const keysOf = async (args: string[]): Promise<string[]> => {
      const result = await cli(['plan', '--format', 'json', ...args], { cwd: project.dir, emulator });
      expect(result.code).toBe(0);
      return (JSON.parse(result.stdout) as { changes: { key: string }[] }).changes.map((c) => c.key);
    };
    const whole = await keysOf([]);
    const first = await keysOf(['--shard', '1/2']);
    const second = await keysOf(['--shard', '2/2']);
    expect(whole).toHaveLength(12);
    expect(first.length).toBeGreaterThan(0);
    expect(second.length).toBeGreaterThan(0);
    expect([...first, ...second].sort()).toEqual([...whole].sort());
    const badShard = await cli(['plan', '--shard', '3/2'], { cwd: project.dir, emulator });
    expect(badShard.code).toBe(1);
    expect(badShard.stderr).toContain('--shard');
  });

  it('says what failed when the key is wrong, without printing the key', async () => {
    emulator = await startTestEmulator({ apiKey: 'the-other-key' });
    project = await tempProject({ 'a.autojoin.yaml': policy('a', ['a.example']) });
    const result = await cli(['plan'], { cwd: project.dir, emulator });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/401/);
  });

  it('applies what a changed file says on the next run', async () => {
    await setup({ 'a.autojoin.yaml': policy('a', ['a.example']) });
    expect((await cli(['apply', '--yes'], { cwd: project.dir, emulator })).code).toBe(0);
    await writeFiles(project.dir, { 'a.autojoin.yaml': policy('a', ['a.example', 'b.example']) });
    const second = await cli(['apply', '--yes'], { cwd: project.dir, emulator });
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('+ b.example');
    expect(liveDomains(emulator.data(), 'a')).toEqual(['a.example', 'b.example']);
  });
});
