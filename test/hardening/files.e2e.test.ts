/**
 * Files that are not files (issue 12): /dev/zero and a FIFO in each file role (project file,
 * policy file, saved plan), symlinks in and out of the repository, writes through symlinks,
 * and a project file in a shared parent directory. Every case ends quickly with a clear error
 * naming the file, or (for a symlink inside the repository) just works.
 */
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, readFile, symlink, lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cli, policy, tempProject, writeFiles, type TempProject } from '../e2e/support.js';
import { writeFileAtomic as writeEmulatorState } from '../../src/emulator/store.js';

const BOUND_MS = 15_000;
let project: TempProject | undefined;
let server: Server | undefined;

beforeAll(assertBuilt);
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

/** A temp directory that is a git repository (`.git` is enough for the root lookup). */
async function repo(files: Record<string, string> = {}): Promise<string> {
  project = await tempProject({ 'repo/.git/HEAD': 'ref: refs/heads/main\n', ...prefixed('repo/', files) });
  return join(project.dir, 'repo');
}

function prefixed(prefix: string, files: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(files).map(([name, text]) => [prefix + name, text]));
}

function mkfifo(path: string): void {
  expect(spawnSync('mkfifo', [path]).status).toBe(0);
}

/** Runs the CLI and checks it ended within the bound (no hang, no 15 GB read). */
async function bounded(args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const started = performance.now();
  const result = await cli(args, { cwd, env, timeoutMs: BOUND_MS + 5_000 });
  expect(performance.now() - started).toBeLessThan(BOUND_MS);
  return result;
}

describe.each([
  ['/dev/zero', async (path: string) => symlink('/dev/zero', path), 'not a regular file (a device)'],
  ['a FIFO', (path: string) => { mkfifo(path); return Promise.resolve(); }, 'not a regular file (a FIFO)'],
])('%s in each file role', (_name, make, reason) => {
  it('as the project file: validate ends with exit 1 naming it', async () => {
    const dir = await repo({ 'a.autojoin.yaml': policy('a', ['a.example']) });
    await make(join(dir, 'autojoin-sync.yaml'));
    const result = await bounded(['validate'], dir);
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).toContain(`project file ${join(dir, 'autojoin-sync.yaml')} is ${reason}`);
  });

  it('as a policy file, found in a directory or given by path: exit 1 naming it', async () => {
    const dir = await repo({ 'a.autojoin.yaml': policy('a', ['a.example']) });
    await make(join(dir, 'b.autojoin.yaml'));
    for (const args of [['validate'], ['validate', 'b.autojoin.yaml']]) {
      const result = await bounded(args, dir);
      expect(result.code).toBe(1);
      expect(result.stdout).toContain(`b.autojoin.yaml:1:1: error: policy file ${join(dir, 'b.autojoin.yaml')} is ${reason}`);
    }
  });

  it('as the saved plan: apply --plan ends with exit 1 naming it', async () => {
    const dir = await repo({ 'a.autojoin.yaml': policy('a', ['a.example']) });
    await make(join(dir, 'plan.json'));
    const result = await bounded(['apply', '--plan', 'plan.json', '--yes'], dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`saved plan plan.json is ${reason}`);
  });
});

describe('symlinks', () => {
  it('a policy file symlinked inside the repository is read', async () => {
    const dir = await repo({ 'shared/a.yaml': policy('a', ['a.example']) });
    await symlink(join(dir, 'shared/a.yaml'), join(dir, 'a.autojoin.yaml'));
    const result = await bounded(['validate', 'a.autojoin.yaml'], dir);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('1 valid policy');
  });

  it('a policy or project file symlinked out of the repository is an error naming it', async () => {
    const dir = await repo({ 'a.autojoin.yaml': policy('a', ['a.example']) });
    await writeFiles(join(dir, '..'), { 'outside/b.yaml': policy('b', ['b.example']), 'outside/project.yaml': 'baseUrl: https://attacker.example\n' });
    await symlink(join(dir, '../outside/b.yaml'), join(dir, 'b.autojoin.yaml'));
    const policyResult = await bounded(['validate'], dir);
    expect(policyResult.code).toBe(1);
    expect(policyResult.stdout).toMatch(/b\.autojoin\.yaml:1:1: error: policy file .*b\.autojoin\.yaml resolves to .*outside\/b\.yaml, outside /u);
    await symlink(join(dir, '../outside/project.yaml'), join(dir, 'autojoin-sync.yaml'));
    const projectResult = await bounded(['validate', 'a.autojoin.yaml'], dir);
    expect(projectResult.code).toBe(1);
    expect(projectResult.stdout).toMatch(/autojoin-sync\.yaml:1:1: error: project file .* resolves to .*outside\/project\.yaml, outside /u);
  });

  it('fmt never writes through a symlink', async () => {
    const dir = await repo({ 'shared/a.yaml': 'scope: a\ncomponentId: c\ndomains: [B.example, a.example]\n' });
    await symlink(join(dir, 'shared/a.yaml'), join(dir, 'a.autojoin.yaml'));
    const result = await bounded(['fmt'], dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('a.autojoin.yaml is a symlink; refusing to write through it');
    expect(await readFile(join(dir, 'shared/a.yaml'), 'utf8')).toBe('scope: a\ncomponentId: c\ndomains: [B.example, a.example]\n');
    expect((await lstat(join(dir, 'a.autojoin.yaml'))).isSymbolicLink()).toBe(true);
  });

  it('import --out never writes through a dangling symlink', async () => {
    const dir = await repo();
    await mkdir(join(dir, 'out'));
    await symlink(join(dir, '../planted.yaml'), join(dir, 'out/team-x.autojoin.yaml'));
    const result = await bounded(['import', '--scope', 'team/x', '--out', 'out', '--component-id', 'c'], dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('team-x.autojoin.yaml exists; nothing was written');
    await expect(lstat(join(dir, '../planted.yaml'))).rejects.toThrow(/ENOENT/u);
    const forced = await bounded(['import', '--scope', 'team/x', '--out', 'out', '--component-id', 'c', '--force'], dir);
    expect(forced.code).toBe(1);
    expect(forced.stderr).toContain('is a symlink; refusing to write through it');
    await expect(lstat(join(dir, '../planted.yaml'))).rejects.toThrow(/ENOENT/u);
  });

  it('plan --out never writes through a symlink', async () => {
    const dir = await repo({ 'a.autojoin.yaml': policy('a', ['a.example']) });
    await symlink(join(dir, '../planted.json'), join(dir, 'plan.json'));
    // A stand-in repository git cannot read: pruning would refuse it (see the pruning tests), so it is off here.
    const result = await bounded(['plan', '--no-prune', '--out', 'plan.json'], dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('plan.json is a symlink; refusing to write through it');
    await expect(lstat(join(dir, '../planted.json'))).rejects.toThrow(/ENOENT/u);
  });
});

describe('writes', () => {
  it('the emulator creates its temp file exclusively: a symlink planted at the temp name is never followed', async () => {
    project = await tempProject();
    const state = join(project.dir, 'state.json');
    const victim = join(project.dir, 'victim.txt');
    for (let counter = 1; counter <= 3; counter += 1) await symlink(victim, join(project.dir, `.state.json.${process.pid}.${counter}.tmp`));
    await expect(writeEmulatorState(state, '{}')).rejects.toThrow(/EEXIST/u);
    await expect(lstat(victim)).rejects.toThrow(/ENOENT/u);
  });
});

describe('a project file above the working directory', () => {
  it('outside a git repository is not used: the base URL it names never receives a request', async () => {
    const hits: string[] = [];
    server = createServer((request, response) => {
      hits.push(String(request.headers['x-api-key']));
      response.writeHead(500).end();
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    project = await tempProject({ 'autojoin-sync.yaml': `baseUrl: ${url}\n`, 'work/a.autojoin.yaml': policy('a', ['a.example']) });
    const result = await bounded(['plan'], join(project.dir, 'work'), { AUTOJOIN_API_KEY: 'key-for-the-real-service' });
    expect(hits).toEqual([]);
    expect(result.stderr).not.toContain(url);
  });

  it('names the project file and the service host it uses on stderr', async () => {
    project = await tempProject({ 'autojoin-sync.yaml': 'defaults: { componentId: c }\n', 'a.autojoin.yaml': policy('a', ['a.example']) });
    const result = await bounded(['plan'], project.dir);
    expect(result.stderr).toMatch(/^using project file autojoin-sync\.yaml; service host 127\.0\.0\.1:\d+ \(embedded emulator, state in \.autojoin-sync\/emulator\.json\)$/mu);
  });
});
