/**
 * The cases issue 22 reproduced against pruning, each as a named test with real git repositories
 * and the CLI as a process against the emulator. Every one of them failed before pruning read
 * the whole history (no history simplification), the working tree as it is, and past versions
 * under their own project file, size cap and secret check.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { CLI_PATH } from '../support/cli.js';
import { git } from '../support/git.js';
import { cli, liveDomains, policy, SECRET, setLive, startTestEmulator, tempProject, useEmulatorProject, writeFiles, type TempProject } from './support.js';

let emulator: Emulator;
let project: TempProject;
useEmulatorProject(() => ({ emulator, project }));

interface PlanJson {
  changes: { key: string; kind: string; reason: string; metadata?: unknown; removedBy?: { commit: string; subject: string } }[];
}

function commit(dir: string, subject: string): void {
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '--allow-empty', '-m', subject);
}

async function repoWith(files: Record<string, string>): Promise<string> {
  project = await tempProject(files);
  git(project.dir, 'init', '-q');
  commit(project.dir, 'policies');
  return project.dir;
}

async function plan(dir: string, args: string[] = []): Promise<PlanJson> {
  const planned = await cli(['plan', '--format', 'json', ...args, 'policies'], { cwd: dir, emulator });
  expect(planned.code, planned.stderr).toBe(0);
  return JSON.parse(planned.stdout) as PlanJson;
}

const clears = (planned: PlanJson): string[] => planned.changes.filter((change) => change.kind === 'clear').map((change) => change.key);

describe('issue 22: pruning sees the whole history', () => {
  it('"Rebase and merge" of a pull request with a merged side branch that adds then deletes a file: its plan shows the clear apply makes', async () => {
    emulator = await startTestEmulator();
    const dir = await repoWith({ 'policies/a.autojoin.yaml': policy('a', ['a.example']) });
    expect((await cli(['apply', '--yes', 'policies'], { cwd: dir, emulator })).code).toBe(0);
    // Marked as this repository's: the ownership guard aside, only git history decides.
    await setLive(emulator, 'managed-elsewhere', ['elsewhere.example']);
    git(dir, 'checkout', '-q', '-b', 'pr');
    await writeFiles(dir, { 'policies/a.autojoin.yaml': policy('a', ['a.example'], { scopeName: 'A team' }) });
    commit(dir, 'Name team a');
    git(dir, 'checkout', '-q', '-b', 'side', 'main');
    await writeFiles(dir, { 'policies/z.autojoin.yaml': policy('managed-elsewhere', ['elsewhere.example']) });
    commit(dir, 'Try z');
    await rm(join(dir, 'policies/z.autojoin.yaml'));
    commit(dir, 'Drop z again');
    git(dir, 'checkout', '-q', 'pr');
    git(dir, 'merge', '-q', '--no-ff', '-m', 'Merge side', 'side');
    git(dir, 'checkout', '-q', 'main');
    await writeFile(join(dir, 'README.md'), 'main moved on\n');
    commit(dir, 'Readme');

    // The pull request's plan, on GitHub's test-merge commit.
    git(dir, 'checkout', '-q', '--detach', 'main');
    git(dir, 'merge', '-q', '--no-ff', '-m', 'Test merge', 'pr');
    const reviewed = clears(await plan(dir));
    // "Rebase and merge": the pull request's commits replayed on main, its merge dropped.
    git(dir, 'checkout', '-q', '-B', 'rebased', 'pr');
    git(dir, 'rebase', '-q', '--force-rebase', 'main');
    expect(git(dir, 'rev-list', '--merges', 'main..rebased')).toBe('');
    git(dir, 'checkout', '-q', 'main');
    git(dir, 'merge', '-q', '--ff-only', 'rebased');
    const applied = await cli(['apply', '--yes', '--format', 'json', 'policies'], { cwd: dir, emulator });
    expect(applied.code, applied.stderr).toBe(0);
    const cleared = liveDomains(emulator.data(), 'managed-elsewhere') === null ? ['team/managed-elsewhere'] : [];

    expect(reviewed).toEqual(['team/managed-elsewhere']);
    expect(cleared.every((key) => reviewed.includes(key))).toBe(true);
  });

  it('a deletion whose apply failed is still cleared after the next push merges an older branch into main', async () => {
    emulator = await startTestEmulator();
    const dir = await repoWith({ 'policies/keep.autojoin.yaml': policy('keep', ['keep.example']) });
    git(dir, 'branch', 'old');
    await writeFiles(dir, { 'policies/x.autojoin.yaml': policy('x', ['x.example']) });
    commit(dir, 'Add x');
    expect((await cli(['apply', '--yes', 'policies'], { cwd: dir, emulator })).code).toBe(0);
    await rm(join(dir, 'policies/x.autojoin.yaml'));
    commit(dir, 'Retire x'); // its apply failed: nothing ran
    git(dir, 'checkout', '-q', 'old');
    await writeFile(join(dir, 'README.md'), 'notes\n');
    commit(dir, 'Notes');
    git(dir, 'merge', '-q', '--no-ff', '-m', 'Merge main into old', 'main');
    git(dir, 'checkout', '-q', 'main');
    git(dir, 'merge', '-q', '--ff-only', 'old');

    const planned = await plan(dir);
    expect(planned.changes.map((change) => [change.kind, change.key, change.removedBy?.subject])).toEqual([['clear', 'team/x', 'Retire x']]);
    expect((await cli(['apply', '--yes', 'policies'], { cwd: dir, emulator })).code).toBe(0);
    expect(liveDomains(emulator.data(), 'x')).toBeNull();
  });
});

describe('issue 22: the working tree as it is', () => {
  it('an uncommitted deletion is pruned (as --prune-from HEAD sees it), by the working tree', async () => {
    emulator = await startTestEmulator();
    const dir = await repoWith({ 'policies/a.autojoin.yaml': policy('a', ['a.example']), 'policies/b.autojoin.yaml': policy('b', ['b.example']) });
    expect((await cli(['apply', '--yes', 'policies'], { cwd: dir, emulator })).code).toBe(0);
    await rm(join(dir, 'policies/b.autojoin.yaml'));
    const planned = await plan(dir);
    expect(planned.changes.map((change) => [change.kind, change.key, change.removedBy?.commit])).toEqual([['clear', 'team/b', 'working-tree']]);
    expect(clears(await plan(dir, ['--prune-from', 'HEAD']))).toEqual(['team/b']);
  });

  it('a scope renamed before commit shows the clear of the old name beside the create', async () => {
    emulator = await startTestEmulator();
    const dir = await repoWith({ 'policies/a.autojoin.yaml': policy('a', ['a.example']) });
    expect((await cli(['apply', '--yes', 'policies'], { cwd: dir, emulator })).code).toBe(0);
    await writeFiles(dir, { 'policies/a.autojoin.yaml': policy('a2', ['a.example']) });
    const planned = await plan(dir);
    expect(planned.changes.map((change) => [change.kind, change.key])).toEqual([
      ['clear', 'team/a'],
      ['create', 'team/a2'],
    ]);
  });
});

describe('issue 22: past versions read as they were', () => {
  it('after defaults.scopeType changes, the scopes of the old type are cleared', async () => {
    emulator = await startTestEmulator();
    const dir = await repoWith({
      'autojoin-sync.yaml': 'defaults:\n  scopeType: team\n  componentId: cmp_e2e\n',
      'policies/x.autojoin.yaml': 'scope: x\ndomains: [x.example]\n',
    });
    expect((await cli(['apply', '--yes', 'policies'], { cwd: dir, emulator })).code).toBe(0);
    await writeFiles(dir, { 'autojoin-sync.yaml': 'defaults:\n  scopeType: workspace\n  componentId: cmp_e2e\n' });
    commit(dir, 'Scopes are workspaces now');
    const planned = await plan(dir);
    expect(planned.changes.map((change) => [change.kind, change.key, change.removedBy?.subject])).toEqual([
      ['clear', 'team/x', 'Scopes are workspaces now'],
      ['create', 'workspace/x', undefined],
    ]);
  });

  it('50 versions of a policy file far over the size cap are never read: bounded memory, one warning', async () => {
    emulator = await startTestEmulator();
    project = await tempProject();
    const dir = project.dir;
    git(dir, 'init', '-q');
    await fastImport(dir, largeVersions(50, 3 * 2 ** 20));
    git(dir, 'reset', '-q', '--hard');
    const { result, peakBytes } = await cliPeakRss(['plan', 'policies'], dir);
    expect(result.code, result.stderr).toBe(0);
    // 150 MiB of versions: a reader that held them would need twice that.
    expect(peakBytes).toBeLessThan(150 * 2 ** 20);
    expect(result.stderr.match(/versions? of this file in git history/g)).toHaveLength(1);
    expect(result.stderr).toContain('policies/big.autojoin.yaml:1:1: warning: 50 versions of this file in git history');
  }, 120_000);

  it('a secret in an old version never reaches the plan, the POST or any output; the version declares nothing, with a warning', async () => {
    emulator = await startTestEmulator();
    const dir = await repoWith({ 'policies/s.autojoin.yaml': policy('s', ['s.example']), 'policies/t.autojoin.yaml': policy('t', ['t.example']) });
    expect((await cli(['apply', '--yes', 'policies'], { cwd: dir, emulator })).code).toBe(0);
    await writeFiles(dir, { 'policies/s.autojoin.yaml': policy('s', ['s.example'], { metadata: `{note: ${SECRET}}` }) });
    commit(dir, 'Note on s');
    await rm(join(dir, 'policies/s.autojoin.yaml'));
    commit(dir, 'Retire s');

    const planned = await cli(['plan', '--format', 'json', 'policies'], { cwd: dir, emulator });
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stderr).toContain('policies/s.autojoin.yaml:4:18: warning: the version of this file replaced by commit');
    // The clean version before it still declares s: cleared, with nothing of either version but its key.
    const changes = (JSON.parse(planned.stdout) as PlanJson).changes;
    expect(changes.map((change) => [change.kind, change.key, change.removedBy?.subject, change.metadata])).toEqual([['clear', 'team/s', 'Note on s', undefined]]);
    const applied = await cli(['apply', '--yes', '--format', 'json', 'policies'], { cwd: dir, emulator });
    expect(applied.code, applied.stderr).toBe(0);
    expect(liveDomains(emulator.data(), 's')).toBeNull();
    expect(JSON.stringify(emulator.data())).not.toContain(SECRET);
  });
});

describe('issue 22: submodules', () => {
  it('a policy file inside a git submodule is an error at discovery, naming the submodule', async () => {
    emulator = await startTestEmulator();
    const inner = await tempProject({ 'policies/s.autojoin.yaml': policy('s', ['s.example']) });
    try {
      git(inner.dir, 'init', '-q');
      commit(inner.dir, 'inner');
      const dir = await repoWith({ 'policies/a.autojoin.yaml': policy('a', ['a.example']) });
      git(dir, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', pathToFileURL(inner.dir).href, 'vendor');
      commit(dir, 'Add vendor');
      for (const args of [['validate', '.'], ['plan', '.'], ['apply', '--yes', 'vendor/policies']]) {
        const refused = await cli(args, { cwd: dir, emulator });
        expect(refused.code, args.join(' ')).toBe(1);
        expect(refused.stdout + refused.stderr).toMatch(/policies\/s\.autojoin\.yaml:1:1: error: policy file inside the git submodule /);
      }
      expect(emulator.requests.filter((request) => request.method === 'POST')).toEqual([]);
    } finally {
      await inner.cleanup();
    }
  });
});

/** Feeds `git fast-import` piece by piece. */
async function fastImport(dir: string, pieces: Iterable<Buffer>): Promise<void> {
  const child = spawn('git', ['-c', 'core.compression=1', '-c', 'pack.compression=1', 'fast-import', '--quiet'], { cwd: dir, stdio: ['pipe', 'ignore', 'inherit'] });
  const closed = once(child, 'close');
  for (const piece of pieces) if (!child.stdin.write(piece)) await once(child.stdin, 'drain');
  child.stdin.end();
  expect((await closed)[0]).toBe(0);
  git(dir, 'symbolic-ref', 'HEAD', 'refs/heads/main');
}

/** `versions` commits of a policy file of `bytes` each, then an ordinary one. */
function* largeVersions(versions: number, bytes: number): Generator<Buffer> {
  const filler = Buffer.alloc(bytes, '  - filler.example\n');
  for (let version = 0; version <= versions; version++) {
    const text = version < versions ? Buffer.concat([Buffer.from(`# version ${version}\nscope: big\nscopeType: team\ncomponentId: c\ndomains:\n`), filler]) : Buffer.from(policy('big', ['big.example']));
    yield Buffer.from(`commit refs/heads/main\ncommitter T <t@example.com> ${1_700_000_000 + version} +0000\ndata 1\nv\nM 100644 inline policies/big.autojoin.yaml\ndata ${text.length}\n`);
    yield text;
    yield Buffer.from('\n');
  }
}

/** Runs the built CLI against the emulator with a probe that writes its peak RSS (`VmHWM`) on exit. */
async function cliPeakRss(args: string[], cwd: string): Promise<{ result: { code: number | null; stderr: string }; peakBytes: number }> {
  const probe = join(cwd, '..', `rss-probe-${process.pid}.mjs`);
  const out = join(cwd, '..', `rss-${process.pid}.txt`);
  await writeFile(
    probe,
    `import { readFileSync, writeFileSync } from 'node:fs';\nprocess.on('exit', () => writeFileSync(process.env.RSS_OUT, /^VmHWM:\\s+(\\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))[1]));\n`,
  );
  try {
    const env = { PATH: process.env.PATH ?? '', HOME: cwd, NO_COLOR: '1', RSS_OUT: out, AUTOJOIN_BASE_URL: emulator.url, AUTOJOIN_API_KEY: SECRET };
    const child = spawn(process.execPath, ['--import', pathToFileURL(probe).href, CLI_PATH, ...args], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const [code] = (await once(child, 'close')) as [number | null];
    return { result: { code, stderr }, peakBytes: Number(await readFile(out, 'utf8')) * 1024 };
  } finally {
    await rm(probe, { force: true });
    await rm(out, { force: true });
  }
}
