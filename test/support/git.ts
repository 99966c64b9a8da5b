/** Real git repositories for tests: one `git` runner with a fixed identity and no signing. */
import { execFileSync } from 'node:child_process';

const IDENTITY = ['-c', 'user.name=test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main'];

/** Runs `git ...args` in `dir` and returns its stdout, trimmed; throws on a non-zero exit. */
export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', [...IDENTITY, ...args], { cwd: dir, stdio: 'pipe', encoding: 'utf8' }).trim();
}

/** Makes `dir` a repository on branch main holding everything in it as one commit. */
export function commitAll(dir: string, message = 'policies'): string {
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', message);
  return git(dir, 'rev-parse', 'HEAD');
}
