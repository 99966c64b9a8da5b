/**
 * `inventory --blame`: who last touched each line, from one `git blame --porcelain` per file
 * (never one per line), a few files at a time. Porcelain output gives each commit's author and
 * time once, at the commit's first line; later lines of the same commit carry only its id.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { forEachBounded } from '../concurrency.js';
import type { BlameInfo } from './inventory.js';

const run = promisify(execFile);
const MAX_OUTPUT = 64 * 1024 * 1024;
const NOT_COMMITTED = /^0{40,64}$/;

/** Who last touched each line of one file: `lines[n]` for 1-based line n. */
export type FileBlame = Map<number, BlameInfo>;

/**
 * @param files paths relative to `cwd`
 * @param concurrency git processes at once
 * @returns each file's blame
 * @throws Error naming the file when git cannot blame it (outside a repository, say)
 */
export async function blameFiles(files: readonly string[], cwd: string, concurrency = 4): Promise<Map<string, FileBlame>> {
  const blamed = new Map<string, FileBlame>();
  await forEachBounded(files, concurrency, async (file) => {
    blamed.set(file, parsePorcelain(await blameOne(file, cwd)));
  });
  return blamed;
}

async function blameOne(file: string, cwd: string): Promise<string> {
  try {
    const { stdout } = await run('git', ['blame', '--porcelain', '--', file], { cwd, maxBuffer: MAX_OUTPUT, encoding: 'utf8' });
    return stdout;
  } catch (error) {
    const { stderr } = error as { stderr?: unknown };
    const first = (typeof stderr === 'string' && stderr !== '' ? stderr : (error as Error).message).trim().split('\n')[0];
    throw new Error(`--blame: git blame ${file} failed: ${first} (--blame needs the policy files in a git repository)`);
  }
}

/** @returns line → blame of `git blame --porcelain` output; lines not yet committed say so. */
export function parsePorcelain(output: string): FileBlame {
  const commits = new Map<string, { author: string; time: string }>();
  const lines: FileBlame = new Map();
  let current: { commit: string; line: number } | null = null;
  for (const text of output.split('\n')) {
    if (text.startsWith('\t')) {
      if (current) lines.set(current.line, blameOf(current.commit, commits.get(current.commit)));
      current = null;
    } else if (current === null) {
      const [commit, , final] = text.split(' ');
      if (commit && final) {
        current = { commit, line: Number(final) };
        if (!commits.has(commit)) commits.set(commit, { author: '', time: '' });
      }
    } else {
      const space = text.indexOf(' ');
      const key = text.slice(0, space);
      const info = commits.get(current.commit);
      if (info && key === 'author') info.author = text.slice(space + 1);
      if (info && key === 'author-time') info.time = new Date(Number(text.slice(space + 1)) * 1000).toISOString();
    }
  }
  return lines;
}

function blameOf(commit: string, info: { author: string; time: string } | undefined): BlameInfo {
  if (NOT_COMMITTED.test(commit)) return { commit: '', author: 'not committed yet', date: '' };
  return { commit, author: info?.author ?? '', date: info?.time ?? '' };
}
