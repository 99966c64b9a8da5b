/**
 * A `git` put first on PATH for one test (`vi.stubEnv`, undone after the file): it logs the
 * arguments of every call, then runs the real git, so a test sees which git calls a run made.
 * `refuse` makes it refuse an option as a git too old for it does (exit 129, git's words).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { vi } from 'vitest';
import { tempDirOfTest } from './temp.js';

/** The git on PATH before any test put its own first. */
const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();

/** @returns the calls so far, one line of arguments each */
export function loggedGitOnPath(options: { refuse?: string } = {}): () => string[] {
  const bin = tempDirOfTest('logged-git-');
  const log = path.join(bin, 'calls.log');
  writeFileSync(log, '');
  const refusal = options.refuse
    ? `for arg in "$@"; do\n  if [ "$arg" = '${options.refuse}' ]; then\n    echo "error: unknown option \\\`${options.refuse.replace(/^--/u, '')}'" >&2\n    exit 129\n  fi\ndone\n`
    : '';
  writeFileSync(path.join(bin, 'git'), `#!/bin/sh\necho "$*" >> '${log}'\n${refusal}exec '${realGit}' "$@"\n`);
  chmodSync(path.join(bin, 'git'), 0o755);
  vi.stubEnv('PATH', `${bin}:${process.env.PATH ?? ''}`);
  return () => readFileSync(log, 'utf8').split('\n').filter(Boolean);
}
