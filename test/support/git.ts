/**
 * Real git repositories for tests: one `git` runner with a fixed identity and no signing.
 *
 * Spawning costs the test worker in proportion to its memory (a fork of a 200 MB process costs
 * about 10 ms of system time on each side of the fork), so helpers that run several git commands
 * run them from one `sh` ({@link gitSteps}): one fork of the worker, then small forks of `sh`.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** A fixed identity, no signing, and `git init` without the sample hooks it would otherwise copy into every repository. */
const IDENTITY = ['-c', 'user.name=test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main', '-c', 'init.templateDir='];

/** Runs `git ...args` in `dir` and returns its stdout, trimmed; throws on a non-zero exit. */
export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', [...IDENTITY, ...args], { cwd: dir, stdio: 'pipe', encoding: 'utf8' }).trim();
}

const quoted = (arg: string): string => `'${arg.replaceAll("'", `'\\''`)}'`;

/**
 * Runs each `git ...step` in `dir` in turn, stopping at the first that fails, from one shell.
 * @returns the steps' stdout, together, trimmed; throws (naming the failed step on stderr) on a non-zero exit
 */
export function gitSteps(dir: string, ...steps: readonly (readonly string[])[]): string {
  const script = steps.map((args) => ['git', ...IDENTITY, ...args].map(quoted).join(' ')).join(' && ');
  return execFileSync('sh', ['-c', script], { cwd: dir, stdio: 'pipe', encoding: 'utf8' }).trim();
}

/** Commits everything in the work tree of `dir` (an empty commit when nothing changed). @returns the new commit */
export function commitChanges(dir: string, message = 'edit'): string {
  gitSteps(dir, ['add', '-A', '.'], ['commit', '-q', '--allow-empty', '-m', message]);
  return headCommit(dir);
}

/** Makes `dir` a repository on branch main holding everything in it as one commit. */
export function commitAll(dir: string, message = 'policies'): string {
  gitSteps(dir, ['init', '-q', '-b', 'main'], ['add', '.'], ['commit', '-q', '-m', message]);
  return headCommit(dir);
}

/**
 * The commit HEAD names, read from the files git just wrote (`.git/HEAD` and its loose branch
 * ref): a `git rev-parse HEAD` fewer for each commit a test makes. Anything else (a subdirectory,
 * a linked work tree, packed refs) asks git.
 */
function headCommit(dir: string): string {
  const read = (file: string): string | undefined => {
    try {
      return readFileSync(path.join(dir, '.git', file), 'utf8').trim();
    } catch {
      return undefined;
    }
  };
  const head = read('HEAD') ?? '';
  const commit = head.startsWith('ref: ') ? read(head.slice('ref: '.length)) : head;
  return commit !== undefined && /^[0-9a-f]{40}([0-9a-f]{24})?$/u.test(commit) ? commit : git(dir, 'rev-parse', 'HEAD');
}
