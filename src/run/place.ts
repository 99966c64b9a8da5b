/**
 * Where a run's files are, found from its policy paths and never from the working directory, so
 * the same repository gives the same answer from its root, a subdirectory or outside it
 * (design: "One answer from any directory"):
 *  - each path's root is its git repository's root, or outside git the named directory (a named
 *    file's own directory); reads are contained in the roots (no symlink leaves them);
 *  - the project file is the nearest `autojoin-sync.yaml` at or above the path, up to its
 *    repository's root (outside git: in the named directory only); paths that would use two
 *    different project files are an error naming both;
 *  - the embedded emulator's state lives beside the project file, else at the first root.
 * The run then works in the first path's repository root: paths are given to the core relative to
 * it, and every file name in a plan or a diagnostic is shown relative to it, so they are the same
 * from any directory. Outside git (no repository to name them from) that base is cwd.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { isInside, pathExists, realRoot, repositoryRoot } from '../files.js';
import { PROJECT_FILE } from '../policy/project.js';
import { relativePosix } from '../policy/discover.js';
import { RunError } from './exit-codes.js';

/** Directory (beside the project file, else at the root) of the embedded emulator's state. */
export const STATE_DIR = '.autojoin-sync';

export interface RunPlace {
  /** The directory the run works in and names files from: the first path's repository root (outside git: cwd). */
  base: string;
  /** The policy paths, relative to `base` (`.` for base itself). */
  paths: string[];
  /** Real paths of the roots reads are contained in: one per repository (or named directory outside git). */
  roots: string[];
  /** Absolute path of the project file, when there is one. */
  projectFile?: string;
  /** Absolute path of the directory holding the embedded emulator's state (`.autojoin-sync`). */
  stateDir: string;
}

interface PathPlace {
  given: string;
  root: string;
  /** Whether `root` is a git repository's root. */
  inGit: boolean;
  projectFile: string | null;
}

/**
 * @param cwd what relative paths are relative to (the only use of the working directory)
 * @param paths the policy paths as given; none means `.`
 * @throws RunError when the paths would use two different project files
 */
export async function locateRun(cwd: string, paths: readonly string[]): Promise<RunPlace> {
  const given = paths.length > 0 ? paths : ['.'];
  const places = await Promise.all(given.map((one) => placeOf(cwd, one)));
  const first = places[0] as PathPlace;
  checkOneProjectFile(places, cwd);
  // Outside git there is no repository to name files from: they are named from cwd, as given.
  const base = first.inGit ? first.root : path.resolve(cwd);
  const projectFile = first.projectFile ?? undefined;
  return {
    base,
    paths: given.map((one) => relativePosix(base, path.resolve(cwd, one))),
    roots: [...new Set(await Promise.all(places.map((place) => realRoot(place.root))))],
    ...(projectFile === undefined ? {} : { projectFile }),
    stateDir: path.join(projectFile === undefined ? first.root : path.dirname(projectFile), STATE_DIR),
  };
}

async function placeOf(cwd: string, given: string): Promise<PathPlace> {
  const absolute = path.resolve(cwd, given);
  // A file's directory; a path that does not exist (reported later) counts as a file.
  const isDirectory = (await stat(absolute).catch(() => null))?.isDirectory() ?? false;
  const dir = isDirectory ? absolute : path.dirname(absolute);
  const repository = await repositoryRoot(dir);
  return { given, root: repository ?? dir, inGit: repository !== null, projectFile: await nearestProjectFile(dir, repository) };
}

/** The nearest project file at or above `dir`, up to `repository` (outside one: `dir` only). */
async function nearestProjectFile(dir: string, repository: string | null): Promise<string | null> {
  for (let at = dir; ; at = path.dirname(at)) {
    const candidate = path.join(at, PROJECT_FILE);
    if (await pathExists(candidate)) return candidate;
    if (repository === null || at === repository || !isInside(repository, at) || path.dirname(at) === at) return null;
  }
}

function checkOneProjectFile(places: readonly PathPlace[], cwd: string): void {
  const first = places[0] as PathPlace;
  const other = places.find((place) => place.projectFile !== first.projectFile);
  if (!other) return;
  const name = (place: PathPlace): string =>
    `${place.projectFile === null ? 'no project file' : relativePosix(cwd, place.projectFile)} (for ${place.given})`;
  throw new RunError(`the paths use two different project files: ${name(first)} and ${name(other)}; run them separately`);
}
