/**
 * The policy files a revision holds, and the project file they are read under: what pruning,
 * `--prune-from` and `--changed-since` read at a revision, and the shapes the history walk
 * (history.ts) hands over for each version a commit replaced.
 */
import { posix } from 'node:path';
import { PROJECT_FILE } from '../policy/project.js';
import { policyPathRule } from '../policy/discover.js';
import type { RemovalCommit } from '../plan/types.js';
import { runGit } from '../git/command.js';
import { rootPath, topPathspec, type Repository } from '../git/repository.js';

/** One version of a policy file that a commit (or the working tree) replaced. */
export interface PastVersion {
  /** Path from the repository root. */
  file: string;
  blob: string;
  /** Blob of the project file in force where this version stood; null: none. */
  project: string | null;
  removedBy?: RemovalCommit;
  /** Larger is newer (the replacing commit's place in topological order). */
  order: number;
}

/** Where the policy files are, from the repository root. */
export interface HistoryPaths {
  /** The run's policy paths (files or directories). */
  given: string[];
  /** Where the project file may stand, nearest first: the first one present in a commit is that commit's. */
  projectFiles: string[];
  /** Directories under `given` whose files are another project's (a nested project's folder): none of their versions is read. */
  excluded?: string[];
}

/** Whether a file (from the repository root) is a policy file under the paths, outside every excluded directory. */
export function historyPolicyRule(paths: HistoryPaths): (file: string) => boolean {
  const isPolicy = policyPathRule(paths.given);
  const excluded = paths.excluded ?? [];
  return (file) => isPolicy(file) && !excluded.some((dir) => file.startsWith(`${dir}/`));
}

/** What an uncommitted change shows as, where a commit would. */
export function workingTreeRemoval(): RemovalCommit {
  return { commit: 'working-tree', date: new Date().toISOString(), subject: 'uncommitted change in the working tree' };
}

/**
 * The run's paths from the repository root, and where its project file may stand.
 * @returns null when no path lies in the repository
 */
export function historyPaths(repository: Repository, paths: readonly string[], excluded: readonly string[] = []): HistoryPaths | null {
  const given = (paths.length > 0 ? paths : ['.']).map((given) => rootPath(repository, given)).filter((given) => given !== '..' && !given.startsWith('../'));
  const within = excluded.map((dir) => rootPath(repository, dir)).filter((dir) => dir !== '.' && !dir.startsWith('..'));
  return given.length === 0 ? null : { given, projectFiles: projectFileLocations(given), ...(within.length === 0 ? {} : { excluded: within }) };
}

/**
 * Where the project file may stand for the run's paths (from the repository root), nearest first:
 * the paths' common directory and every directory above it, as the run's own is found.
 */
export function projectFileLocations(given: readonly string[]): string[] {
  const inside = given.filter((file) => file !== '..' && !file.startsWith('../'));
  let common = (inside[0] ?? '.').split('/');
  for (const other of inside.slice(1)) {
    const parts = other.split('/');
    let same = 0;
    while (same < common.length && common[same] === parts[same]) same++;
    common = common.slice(0, same);
  }
  if (/\.ya?ml$/i.test(common.at(-1) ?? '')) common = common.slice(0, -1);
  const directories = common.filter((part) => part !== '.' && part !== '');
  const locations: string[] = [];
  for (let depth = directories.length; depth >= 0; depth--) locations.push(posix.join(...directories.slice(0, depth), PROJECT_FILE));
  return locations;
}

/** The modes of a regular file (executable or not): links and submodules are no policy files. */
export const REGULAR_FILE = /^100(?:644|755)$/;

/** @returns the blob of the project file in force: the nearest location present. */
export function governing(blobs: readonly (string | undefined)[] | undefined): string | null {
  return blobs?.find((blob) => blob !== undefined) ?? null;
}

/**
 * The policy files under the paths at `rev`, as versions read under `rev`'s own project file: one
 * `ls-tree` lists both.
 * @param removedBy what replaced them (none for `--prune-from`: they are what REV held)
 */
export async function versionsAt(
  repository: Repository,
  rev: string,
  paths: HistoryPaths,
  replaced: { removedBy?: RemovalCommit; order: number; context: string },
): Promise<PastVersion[]> {
  const isPolicy = historyPolicyRule(paths);
  const pathspecs = [...paths.given, ...paths.projectFiles].map(topPathspec);
  const listed = await runGit(['ls-tree', '-r', '-z', '--full-name', rev, '--', ...pathspecs], { cwd: repository.dir, context: replaced.context });
  const projects: (string | undefined)[] = [];
  const files: { file: string; blob: string }[] = [];
  for (const record of listed.toString('utf8').split('\0')) {
    const tab = record.indexOf('\t');
    const [mode = '', , blob = ''] = record.slice(0, tab).split(' ');
    const file = record.slice(tab + 1);
    const projectAt = paths.projectFiles.indexOf(file);
    if (tab < 0 || !REGULAR_FILE.test(mode)) continue;
    if (projectAt >= 0) projects[projectAt] = blob;
    else if (isPolicy(file)) files.push({ file, blob });
  }
  const project = governing(projects);
  return files.map(({ file, blob }) => ({ file, blob, project, order: replaced.order, ...(replaced.removedBy ? { removedBy: replaced.removedBy } : {}) }));
}
