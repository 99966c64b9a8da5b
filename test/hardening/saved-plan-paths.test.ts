/**
 * A saved plan's recorded project file never leaves the repository and is read as any project
 * file is (src/files.ts: a regular file inside the repository, size-capped). A plan handed to you
 * that records `../outside.txt`, an absolute `/dev/zero`, or a FIFO inside the repository is
 * refused at once by `show`, `apply --plan` and `merge-plans`, and nothing is read: the old code
 * printed the sha256 of the file outside, hung on the FIFO and read /dev/zero without end.
 * In-process, against the emulator over loopback, in a real git repository.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyData, startEmulator, type Emulator } from '../../src/emulator/index.js';
import { recordedPathProblem } from '../../src/files.js';
import { commitAll } from '../support/git.js';
import { runInProcess } from '../support/in-process.js';

const KEY = 'sk-saved-paths-3e9a';
const OUTSIDE = 'the bytes of a file outside the repository\n';
const OUTSIDE_SHA = createHash('sha256').update(OUTSIDE).digest('hex');

let outer: string;
let dir: string;
let emulator: Emulator;
let planText: string;

const run = (...args: string[]) => runInProcess(args, { cwd: dir, env: { AUTOJOIN_BASE_URL: emulator.url, AUTOJOIN_API_KEY: KEY } });

/** The saved plan with its recorded project file's path replaced. */
async function planRecording(name: string, recorded: string): Promise<string> {
  const plan = JSON.parse(planText) as { context: { projectFile: { path: string } } };
  plan.context.projectFile.path = recorded;
  const file = path.join(dir, name);
  await writeFile(file, `${JSON.stringify(plan, null, 2)}\n`);
  return name;
}

beforeAll(async () => {
  outer = await mkdtemp(path.join(tmpdir(), 'autojoin-saved-paths-'));
  dir = path.join(outer, 'repo');
  await mkdir(dir);
  await writeFile(path.join(outer, 'outside.txt'), OUTSIDE);
  await writeFile(path.join(dir, 'autojoin-sync.yaml'), 'owner: acme\n');
  await writeFile(path.join(dir, 'eng.autojoin.yaml'), 'scope: eng\nscopeType: team\ncomponentId: cmp_paths\ndomains: [acme.com]\n');
  commitAll(dir);
  execFileSync('mkfifo', [path.join(dir, 'fifo.yaml')]);
  emulator = await startEmulator({ port: 0, data: emptyData(), apiKey: KEY });
  const made = await run('plan', '.', '--out', 'plan.json');
  expect(made.code, made.stderr).toBe(0);
  planText = await readFile(path.join(dir, 'plan.json'), 'utf8');
  expect(JSON.parse(planText)).toMatchObject({ context: { projectFile: { path: 'autojoin-sync.yaml' } } });
});

afterAll(async () => {
  await emulator.close();
  await rm(outer, { recursive: true, force: true });
});

describe("a saved plan's recorded project file", () => {
  it.each([
    ['a path out of the repository', '../outside.txt'],
    ['a path out of it through a subdirectory', 'sub/../../outside.txt'],
    ['an absolute path to a device', '/dev/zero'],
    ['an absolute path to a file outside', 'OUTSIDE'],
  ])('%s is refused at once by show, apply --plan and merge-plans; nothing is read', async (_what, given) => {
    const recorded = given === 'OUTSIDE' ? path.join(outer, 'outside.txt') : given;
    const name = await planRecording('handed.json', recorded);
    for (const args of [['show', name], ['apply', '--plan', name, '--yes'], ['merge-plans', name, '--out', 'merged.json']]) {
      const result = await run(...args);
      expect(result.code, `${args.join(' ')}: ${result.stdout}${result.stderr}`).toBe(1);
      expect(result.stderr).toMatch(/\/context\/projectFile\/path .*so it is not a file inside the repository; nothing was read/u);
      expect(result.stdout + result.stderr).not.toContain(OUTSIDE_SHA);
    }
  });

  it('a FIFO inside the repository is not read: show warns, apply --plan refuses it as not a regular file', async () => {
    const name = await planRecording('fifo-plan.json', 'fifo.yaml');
    const shown = await run('show', name);
    expect(shown.stderr).toMatch(/project file fifo\.yaml/u);
    const applied = await run('apply', '--plan', name, '--yes');
    expect(applied.code, applied.stderr).toBe(1);
    expect(applied.stderr).toMatch(/fifo\.yaml is not a regular file \(a FIFO\)/u);
  });

  it('a symlink inside the repository to a file outside it is not read', async () => {
    execFileSync('ln', ['-s', path.join(outer, 'outside.txt'), path.join(dir, 'link.yaml')]);
    const name = await planRecording('link-plan.json', 'link.yaml');
    for (const args of [['show', name], ['apply', '--plan', name, '--yes']]) {
      const result = await run(...args);
      expect(result.stdout + result.stderr).not.toContain(OUTSIDE_SHA);
    }
  });

  it('the recorded path as made is still read and matched', async () => {
    const name = await planRecording('same.json', 'autojoin-sync.yaml');
    const shown = await run('show', name);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stderr).not.toMatch(/project file/u);
  });
});

describe('recordedPathProblem', () => {
  it.each(['../a', 'a/../b', './a', 'a//b', '/etc/passwd', 'C:/x', 'a\\..\\b', '', 'a/\0'])('refuses %j', (given) => {
    expect(recordedPathProblem(given)).not.toBeNull();
  });
  it.each(['autojoin-sync.yaml', 'sub/dir/autojoin-sync.yaml', '..a/b', 'a..'])('takes %j', (given) => {
    expect(recordedPathProblem(given)).toBeNull();
  });
});
