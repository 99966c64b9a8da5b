/**
 * adopt and import write data, never structure, and only files that pass the repository's own
 * checks (issues 33 and 34): domains normalized and quoted where needed, a `fmt`-clean file stays
 * clean, a domain a rule forbids is not adopted (and the run says why), "nothing to adopt" when no
 * file would change, a bounded and inert pull request body, git's own message on a failure.
 * In-process: real git repository, emulator over loopback.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { adoptText, yamlScalar } from '../../src/policy/adopt-edit.js';
import { inert, pullRequestBody } from '../../src/action/adopt-step.js';
import { runGit } from '../../src/git/command.js';
import type { Drifted } from '../../src/reconcile/adopt-drift.js';
import { commitAll } from '../support/git.js';
import { KEY, reposClosedAfterEach, type Repo } from './support.js';
import { runInProcess } from '../support/in-process.js';

const DAY = '2026-03-01';
const PROJECT = 'rules:\n  - name: no agencies\n    deny: ["*.agency.example"]\n';
const POLICY = 'scope: acme\nscopeType: team\ncomponentId: c1\ndomains:\n  - a.example\n  - c.example\n';

const openRepo = reposClosedAfterEach();

async function applied(): Promise<Repo> {
  const r = await openRepo({ 'autojoin-sync.yaml': PROJECT, 'acme.autojoin.yaml': POLICY });
  expect((await r.run(DAY, 'fmt', '--check', '.')).code).toBe(0);
  expect((await r.run(DAY, 'apply', '--yes', '.')).code).toBe(0);
  return r;
}

describe('adopt writes only files that pass the repository\'s checks', () => {
  it('a file that passed fmt --check still passes after (entries in canonical order), and validates', async () => {
    const r = await applied();
    await r.admin('acme', ['a.example', 'b.example', 'c.example']);
    const adopt = await r.run(DAY, 'adopt', '.');
    expect(adopt.code, adopt.stderr).toBe(0);
    expect(adopt.stdout).toContain('adopted team/acme');
    expect(await r.read('acme.autojoin.yaml')).toBe(POLICY.replace('  - c.example\n', '  - b.example\n  - c.example\n'));
    expect((await r.run(DAY, 'fmt', '--check', '.')).code).toBe(0);
    expect((await r.run(DAY, 'validate', '.')).code).toBe(0);
  });

  it('a domain an error-level rule forbids is not adopted: nothing written for that scope, and it says why', async () => {
    const r = await applied();
    await r.admin('acme', ['a.example', 'c.example', 'x.agency.example']);
    const adopt = await r.run(DAY, 'adopt', '.');
    expect(adopt.code, adopt.stderr).toBe(0);
    expect(adopt.stderr).toContain('not adopted: team/acme: the file would not pass validate:');
    expect(adopt.stderr).toContain('x.agency.example');
    expect(adopt.stderr).toContain('Nothing to adopt');
    expect(await r.read('acme.autojoin.yaml')).toBe(POLICY);
  });

  it('a domain another file declares is not adopted past maxScopesPerDomain: validate counts every file, so adopt does', async () => {
    const project = 'rules:\n  - name: one team per domain\n    maxScopesPerDomain: 1\n';
    const beta = 'scope: beta\nscopeType: team\ncomponentId: c1\ndomains:\n  - b.example\n';
    const r = await openRepo({ 'autojoin-sync.yaml': project, 'acme.autojoin.yaml': POLICY, 'beta.autojoin.yaml': beta });
    expect((await r.run(DAY, 'apply', '--yes', '.')).code).toBe(0);
    await r.admin('acme', ['a.example', 'b.example', 'c.example']);
    const adopt = await r.run(DAY, 'adopt', '.');
    expect(adopt.code, adopt.stderr).toBe(0);
    expect(adopt.stderr).toContain('not adopted: team/acme: the file would not pass validate:');
    expect(adopt.stderr).toContain('b.example in team/acme would appear in 2 scopes, more than 1');
    expect(await r.read('acme.autojoin.yaml')).toBe(POLICY);
    expect((await r.run(DAY, 'validate', '.')).code).toBe(0);
  });

  it('from a subfolder, names the file it adopted into from there (design: "One answer from any directory")', async () => {
    const r = await applied();
    await mkdir(path.join(r.dir, 'sub'));
    await r.admin('acme', ['a.example', 'b.example', 'c.example']);
    const adopt = await runInProcess(['adopt', '..'], { cwd: path.join(r.dir, 'sub'), env: { AUTOJOIN_BASE_URL: r.emulator.url, AUTOJOIN_API_KEY: KEY, AUTOJOIN_NOW: DAY } });
    expect(adopt.code, adopt.stderr).toBe(0);
    expect(adopt.stdout).toMatch(/^adopted team\/acme into \.\.\/acme\.autojoin\.yaml:1: /u);
  });

  it('from a subfolder, names the file from there in why a scope was not adopted: a domain a rule denies, metadata changed outside', async () => {
    const r = await openRepo({ 'autojoin-sync.yaml': PROJECT, 'acme.autojoin.yaml': POLICY.replace('domains:', 'metadata: {owner: eng}\ndomains:') });
    expect((await r.run(DAY, 'apply', '--yes', '.')).code).toBe(0);
    await r.admin('acme', ['a.example', 'c.example', 'x.agency.example'], { ...(await r.live('acme')).metadata, owner: 'ops' });
    await mkdir(path.join(r.dir, 'sub'));
    const env = { AUTOJOIN_BASE_URL: r.emulator.url, AUTOJOIN_API_KEY: KEY, AUTOJOIN_NOW: DAY };
    const here = await runInProcess(['adopt', '..'], { cwd: path.join(r.dir, 'sub'), env });
    expect(here.code, here.stderr).toBe(0);
    expect(here.stderr).toContain('not adopted: team/acme: its metadata changed outside; metadata is not adopted (edit ../acme.autojoin.yaml:1 by hand)');
    expect(here.stderr).toMatch(/not adopted: team\/acme: the file would not pass validate: \.\.\/acme\.autojoin\.yaml:\d+:\d+: error: .*x\.agency\.example/u);
    // From the root, the same reasons name the file as the plan does.
    const root = await r.run(DAY, 'adopt', '.');
    expect(root.stderr).toContain('(edit acme.autojoin.yaml:1 by hand)');
    expect(root.stderr).toMatch(/pass validate: acme\.autojoin\.yaml:\d+:\d+: error: /u);
  });

  it('says "Nothing to adopt" when no file would change, and writes nothing', async () => {
    const r = await applied();
    const adopt = await r.run(DAY, 'adopt', '.');
    expect(adopt.code).toBe(0);
    expect(adopt.stderr).toContain('Nothing to adopt');
    expect(adopt.stdout).toBe('');
    expect(await r.read('acme.autojoin.yaml')).toBe(POLICY);
  });
});

describe('adopt writes data, never structure', () => {
  it.each(['evil.example\nscope: evil\n---\nscope: x', "'evil.com'", 'a # b', 'true', '1.5', 'x: y', '- z', '[a, b]', '{a: b}', '"q"', '@x', '`x`'])(
    'a live value %j reads back as exactly that string, in one document',
    (value) => {
      const edited = adoptText({ file: 'p.yaml', text: POLICY }, [{ line: 1, domains: ['a.example', value] }]);
      const documents = parseAllDocuments(edited);
      expect(documents).toHaveLength(1);
      expect((documents[0]?.toJS() as { domains: string[] }).domains).toEqual(['a.example', value]);
      const inline = adoptText({ file: 'p.yaml', text: POLICY.replace('domains:\n  - a.example\n  - c.example\n', 'domains: [a.example]\n') }, [{ line: 1, domains: ['a.example', value] }]);
      expect((parseAllDocuments(inline)[0]?.toJS() as { domains: string[] }).domains).toEqual(['a.example', value]);
      expect(yamlScalar('plain.example')).toBe('plain.example');
    },
  );
});

describe('the adopt pull request body is bounded and inert', () => {
  const drifted = (index: number, domain: string): Drifted => ({
    key: `team/s${index}`,
    source: { file: `s${index}.autojoin.yaml`, line: 1, column: 1 },
    live: [domain],
    outside: { added: [domain], removed: [], fields: [], modifiedAt: '2026-03-01T00:00:00Z' },
  });

  it('stays under 60,000 characters with thousands of scopes, counting the rest', () => {
    const body = pullRequestBody(Array.from({ length: 4000 }, (_, i) => drifted(i, `domain-${i}-${'x'.repeat(40)}.example`)), []);
    expect(body.length).toBeLessThan(60_000);
    expect(body).toMatch(/and +\d+ more scopes adopted/);
  });

  it('puts every live value in a code span: no mention, link, HTML or image is live', () => {
    const hostile = '@admin [x](https://evil.example) <img src=x> ![i](https://e/i.png) www.evil.example | `tick`';
    const body = pullRequestBody([drifted(1, hostile)], []);
    expect(body).toContain(`+${inert(hostile)}`);
    expect(inert(hostile)).toBe('`` @admin [x](https://evil.example) <img src=x> ![i](https://e/i.png) www.evil.example \\| `tick` ``');
  });
});

describe('a failing git command', () => {
  it('names its subcommand and shows git\'s own message', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'git-fail-'));
    try {
      await writeFile(path.join(dir, 'a.txt'), 'a');
      commitAll(dir);
      const failed = runGit(['-c', 'user.name=x', '-c', 'user.email=x@example.com', 'commit', '-q', '-m', 'nothing'], { cwd: dir, context: 'command adopt' });
      await expect(failed).rejects.toThrow(/^command adopt: git commit failed: .*nothing to commit/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('import checks what it writes as validate would, rules included', () => {
  it('a live scope a rule forbids is not written, and the run says why (exit 1)', async () => {
    const r = await openRepo({ 'autojoin-sync.yaml': PROJECT + 'defaults:\n  componentId: c1\n' });
    await r.admin('bad', ['x.agency.example']);
    await r.admin('good', ['fine.example']);
    const run = await r.run(DAY, 'import', '--scope', 'team/bad', '--scope', 'team/good', '--out', 'policies');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('not written: team/bad');
    expect(run.stderr).toContain('rule "no agencies"');
    await expect(r.read('policies/team-bad.autojoin.yaml')).rejects.toThrow();
    expect(await r.read('policies/team-good.autojoin.yaml')).toContain('fine.example');
  });
});
