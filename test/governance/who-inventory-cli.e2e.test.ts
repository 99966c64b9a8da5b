/**
 * `who` and `inventory` as a user runs them: spawned, on real files and a real git repository;
 * `who --live` against the embedded emulator.
 */
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { commitAll, git } from '../support/git.js';

const policy = (scope: string, domains: string): string => `scope: ${scope}\nscopeType: team\ncomponentId: c1\ndomains:\n${domains}`;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'who-'));
  await mkdir(path.join(dir, 'policies'));
  await writeFile(path.join(dir, 'policies/a.autojoin.yaml'), policy('a', '  - acme.com\n  - xn--mller-kva.de\n'));
  await writeFile(
    path.join(dir, 'policies/b.autojoin.yaml'),
    `scopeName: "Team, B"\n${policy('b', '  - ACME.com\n  - domain: contractor.example\n    expires: 2026-06-30\n    reason: "=HYPERLINK(""x"")"\n')}`.replace('""x""', '\\"x\\"'),
  );
  await writeFile(path.join(dir, 'policies/c.autojoin.yaml'), policy('c', '  - {domain: acme.com, expires: 2026-01-01}\n  - other.example\n'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const cli = (args: string[], env: Record<string, string> = {}): ReturnType<typeof runCli> => runCli(args, { cwd: dir, env: { AUTOJOIN_NOW: '2026-03-01', ...env } });

describe('who', () => {
  it('lists the scopes admitting each domain with the file:line of the entry; Unicode and punycode alike; expired entries admit nobody', async () => {
    const result = await cli(['who', 'Acme.COM', 'müller.de', 'nobody.example', 'policies']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      'acme.com: 2 scopes\n  team/a  policies/a.autojoin.yaml:5\n  team/b (Team, B)  policies/b.autojoin.yaml:6\n' +
        'xn--mller-kva.de (müller.de): 1 scope\n  team/a  policies/a.autojoin.yaml:6\n' +
        'nobody.example: no scope admits it\n',
    );
  });

  it('--format json', async () => {
    const result = await cli(['who', 'contractor.example', '--format', 'json']);
    expect(JSON.parse(result.stdout)).toEqual({
      formatVersion: 1,
      domains: [
        {
          query: 'contractor.example',
          domain: 'contractor.example',
          scopes: [{ key: 'team/b', scopeType: 'team', scope: 'b', scopeName: 'Team, B', file: 'policies/b.autojoin.yaml', line: 7, expires: '2026-06-30' }],
        },
      ],
    });
  });

  it('--live reads only the scopes that admit the domain and marks where the service differs', async () => {
    await writeFile(path.join(dir, 'policies/c.autojoin.yaml'), policy('c', '  - other.example\n'));
    expect((await cli(['apply', '--emulator', '--yes', '--no-prune', 'policies'])).code).toBe(0);
    await writeFile(path.join(dir, 'policies/c.autojoin.yaml'), policy('c', '  - other.example\n  - acme.com\n'));
    await writeFile(path.join(dir, 'policies/d.autojoin.yaml'), policy('d', '  - unrelated.example\n'));
    const result = await cli(['who', 'acme.com', 'policies', '--live', '--emulator', '--verbose', '--listing', 'by-scope']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      'acme.com: 3 scopes\n  team/a  policies/a.autojoin.yaml:5  live: yes\n  team/b (Team, B)  policies/b.autojoin.yaml:6  live: yes\n' +
        '  team/c  policies/c.autojoin.yaml:6  live: NO (the service does not list it)\n',
    );
    expect(result.stderr).toContain('/team/c');
    expect(result.stderr).not.toContain('/team/d');
  });
});

describe('inventory', () => {
  it('CSV: RFC 4180 with a header row, quoted cells, formula-like cells neutralised', async () => {
    const result = await cli(['inventory', 'policies']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        'scopeType,scope,scopeName,domain,expires,reason,file,line',
        'team,a,,acme.com,,,policies/a.autojoin.yaml,5',
        'team,a,,xn--mller-kva.de,,,policies/a.autojoin.yaml,6',
        'team,b,"Team, B",acme.com,,,policies/b.autojoin.yaml,6',
        `team,b,"Team, B",contractor.example,2026-06-30,"'=HYPERLINK(""x"")",policies/b.autojoin.yaml,7`,
        'team,c,,acme.com,2026-01-01,,policies/c.autojoin.yaml,5',
        'team,c,,other.example,,,policies/c.autojoin.yaml,6',
        '',
      ].join('\r\n'),
    );
  });

  it('markdown and JSON', async () => {
    const markdown = (await cli(['inventory', '--format', 'markdown'])).stdout.split('\n');
    expect(markdown[0]).toBe('| scopeType | scope | scopeName | domain | expires | reason | file | line |');
    expect(markdown[5]).toBe('| team | b | Team, B | contractor.example | 2026-06-30 | =HYPERLINK(&#34;x&#34;) | policies/b.autojoin.yaml | 7 |');
    const json = JSON.parse((await cli(['inventory', '--format', 'json'])).stdout) as { rows: unknown[] };
    expect(json.rows[0]).toEqual({ scopeType: 'team', scope: 'a', scopeName: '', domain: 'acme.com', expires: '', reason: '', file: 'policies/a.autojoin.yaml', line: 5 });
  });

  it('--blame: commit, author and date of each line, from at most one git blame per file, as git blame says', async () => {
    const first = commitAll(dir);
    // b: edited by a second commit; c: renamed; a: changed in the working tree. Only these need git blame.
    await writeFile(path.join(dir, 'policies/b.autojoin.yaml'), (await readFile(path.join(dir, 'policies/b.autojoin.yaml'), 'utf8')).replace('  - ACME.com\n', '  - acme.com\n'));
    git(dir, 'mv', 'policies/c.autojoin.yaml', 'policies/c2.autojoin.yaml');
    await writeFile(path.join(dir, 'policies/e.autojoin.yaml'), policy('e', '  - e.example\n'));
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'second');
    const second = git(dir, 'rev-parse', 'HEAD');
    await writeFile(path.join(dir, 'policies/a.autojoin.yaml'), policy('a', '  - acme.com\n  - new.example\n'));
    // A git on PATH that logs each call, then runs the real one.
    const bin = path.join(dir, 'bin');
    await mkdir(bin);
    await writeFile(path.join(bin, 'git'), `#!/bin/sh\necho "$*" >> "${path.join(dir, 'git.log')}"\nPATH="${process.env.PATH ?? ''}" exec git "$@"\n`);
    await chmod(path.join(bin, 'git'), 0o755);
    const result = await cli(['inventory', 'policies', '--blame'], { PATH: `${bin}:${process.env.PATH ?? ''}` });
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\r\n');
    expect(lines[0]).toBe('scopeType,scope,scopeName,domain,expires,reason,file,line,commit,author,date');
    const stamp = String.raw`test,\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z`;
    expect(lines.slice(1, -1).map((line) => line.replace(new RegExp(stamp), 'test,DATE'))).toEqual([
      `team,a,,acme.com,,,policies/a.autojoin.yaml,5,${first},test,DATE`,
      'team,a,,new.example,,,policies/a.autojoin.yaml,6,,not committed yet,',
      `team,b,"Team, B",acme.com,,,policies/b.autojoin.yaml,6,${second},test,DATE`,
      `team,b,"Team, B",contractor.example,2026-06-30,"'=HYPERLINK(""x"")",policies/b.autojoin.yaml,7,${first},test,DATE`,
      `team,c,,acme.com,2026-01-01,,policies/c2.autojoin.yaml,5,${first},test,DATE`,
      `team,c,,other.example,,,policies/c2.autojoin.yaml,6,${first},test,DATE`,
      `team,e,,e.example,,,policies/e.autojoin.yaml,5,${second},test,DATE`,
    ]);
    const calls = (await readFile(path.join(dir, 'git.log'), 'utf8')).split('\n').filter((line) => line.startsWith('blame'));
    expect(calls.sort()).toEqual([
      'blame --porcelain -- policies/a.autojoin.yaml',
      'blame --porcelain HEAD -- policies/b.autojoin.yaml',
      'blame --porcelain HEAD -- policies/c2.autojoin.yaml',
    ]);
  });

  it('--blame outside a git repository fails naming why', async () => {
    const result = await cli(['inventory', 'policies', '--blame']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--blame needs the policy files in a git repository');
  });
});
