/**
 * Where a run's files are, found from its policy paths and never from the working directory, so
 * the same repository gives the same answer from its root, a subdirectory or outside it
 * (design: "One answer from any directory"):
 *  - each path's root is its git repository's root, or outside git the named directory (a named
 *    file's own directory); reads are contained in the roots (no symlink leaves them);
 *  - the project file of a policy file is the nearest `autojoin-sync.yaml` at or above that
 *    file, up to its repository's root (outside git: in the named directory only); the run is a
 *    list of projects (design: "Many projects, one run"): each project file with the policy files
 *    whose nearest it is, and the files with none under one root; `--project FILE` names it and
 *    refuses policy files outside its directory;
 *  - the embedded emulator's state lives at the first path's root (its repository's, outside git
 *    the named directory): one state per run, whatever its projects (release 5).
 * The run then works in the first path's repository root: paths are given to the core relative to
 * it, and every file name in a plan or a diagnostic is shown relative to it, so they are the same
 * from any directory. Outside git (no repository to name them from) that base is cwd.
 */
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path, { posix } from 'node:path';
import { isInside, pathExists, realRoot, repositoryRoot } from '../files.js';
import { PROJECT_FILE } from '../policy/project.js';
import { discoverPolicyFiles } from '../policy/discover.js';
import { relativePosix } from '../relative-path.js';
import { RunError } from '../output/exit-codes.js';
import { memoized } from '../memo.js';
import { compareStrings } from '../comparable-domain.js';

/** Directory (at the repository root of the paths; outside git, in the first named directory) of the embedded emulator's state. */
export const STATE_DIR = '.autojoin-sync';

/**
 * One project of a run (design: "Many projects, one run"): a project file and the policy files
 * whose nearest project file it is; the policy files with none under one root form one project
 * without a project file.
 */
export interface ProjectPlace {
  /** Absolute path of the project file; undefined: the policy files under `root` that have none. */
  projectFile?: string;
  /** The directory whose files it governs: the project file's, else the repository root (outside git: the named directory). */
  dir: string;
  /** Its policy files (or the path itself when it holds none), named relative to the run's cwd as discovery names them. */
  files: string[];
}

export interface RunPlace {
  /** The directory the run works in and names files from: the first path's repository root (outside git: cwd). */
  base: string;
  /** The policy paths, relative to `base` (`.` for base itself). */
  paths: string[];
  /** Real paths of the roots reads are contained in: one per repository (or named directory outside git). */
  roots: string[];
  /** Absolute path of the project file, when the run has one project and it has one. */
  projectFile?: string;
  /** The run's projects, by project file (projects without one last); one at least. */
  projects: ProjectPlace[];
  /** Absolute path of the directory holding the embedded emulator's state (`.autojoin-sync`). */
  stateDir: string;
  /** `--project FILE` skipped policy files of other projects: the one notice that counts them. */
  notice?: string;
  /**
   * A project of a run of several whose folder holds another project's (or a project without a
   * project file): where pruning reads history, its paths listing only its files. Relative to `base`.
   */
  prunePlace?: { paths: string[]; excluded: string[] };
}

interface PathPlace {
  given: string;
  root: string;
  /** Whether `root` is a git repository's root. */
  inGit: boolean;
  /**
   * The policy files under the path by their project file (its absolute path; null: none), or the
   * path itself when it holds none; each named relative to the run's cwd, as discovery names them.
   */
  projectFiles: Map<string | null, string[]>;
}

/**
 * @param cwd what relative paths are relative to (the only use of the working directory)
 * @param paths the policy paths as given; none means `.`
 * @param projectFlag `--project FILE`: the project file, whatever is nearer; policy files outside its directory are refused
 */
export async function locateRun(cwd: string, paths: readonly string[], projectFlag?: string): Promise<RunPlace> {
  const given = paths.length > 0 ? paths : ['.'];
  const places = await Promise.all(given.map((one) => placeOf(cwd, one)));
  const first = places[0] as PathPlace;
  const all = projectsOf(places);
  const selected = projectFlag === undefined ? null : await selectedProject(cwd, projectFlag, places, all);
  const projects = selected === null ? all : [selected.project];
  // Stryker disable next-line OptionalChaining: a list of length 1 has its first project
  const only = projects.length === 1 ? projects[0]?.projectFile : undefined;
  // Outside git there is no repository to name files from: they are named from cwd, as given.
  const base = first.inGit ? first.root : path.resolve(cwd);
  return {
    base,
    paths: (selected?.paths ?? given).map((one) => relativePosix(base, path.resolve(cwd, one))),
    ...(selected?.notice === undefined ? {} : { notice: selected.notice }),
    roots: [...new Set(await Promise.all(places.map((place) => realRoot(place.root))))],
    ...(only === undefined ? {} : { projectFile: only }),
    projects,
    stateDir: path.join(first.root, STATE_DIR),
  };
}
async function placeOf(cwd: string, given: string): Promise<PathPlace> {
  const absolute = path.resolve(cwd, given);
  // A file's directory; a path that does not exist (reported later) counts as a file.
  // Stryker disable next-line ArrowFunction: a path stat cannot read is no directory, null or undefined alike
  const isDirectory = (await stat(absolute).catch(() => null))?.isDirectory() ?? false;
  const dir = isDirectory ? absolute : path.dirname(absolute);
  const repository = await repositoryRoot(dir);
  const projectFiles = new Map<string | null, string[]>();
  const top = repository ?? dir;
  // Discovery's names are relative to cwd: each directory is resolved once, not each file.
  const nearestTo = memoized((directory: string) => nearestProjectFile(path.resolve(cwd, directory), top));
  // Outside git only the named directory's project file counts; in git, each policy file's nearest.
  const files = repository === null || !isDirectory ? [] : (await discoverPolicyFiles([absolute], cwd)).files;
  for (const file of files) push(projectFiles, nearestTo(posix.dirname(file)), file);
  if (projectFiles.size === 0) push(projectFiles, nearestProjectFile(dir, top), relativePosix(cwd, absolute));
  return { given, root: repository ?? dir, inGit: repository !== null, projectFiles };
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * The nearest project file at or above `dir`, up to `top` (the repository root; outside git, the named directory).
 * Blocking, as discovery is: one call a directory of policy files, before the first live read, where
 * a round trip through the thread pool each added up to tens of milliseconds at a few thousand files.
 */
function nearestProjectFile(dir: string, top: string): string | null {
  for (let at = dir; ; at = path.dirname(at)) {
    const candidate = path.join(at, PROJECT_FILE);
    if (existsSync(candidate)) return candidate;
    // `top` is `dir` or above it, so the walk meets it; isInside only stops one that would climb past it.
    if (at === top || !isInside(top, at)) return null;
  }
}

/** The run's projects: its policy files grouped by project file (those with none form one, at the first of their roots), project files first, by path. */
function projectsOf(places: readonly PathPlace[]): ProjectPlace[] {
  const groups = new Map<string | null, ProjectPlace>();
  for (const place of places) {
    for (const [file, policies] of place.projectFiles) {
      // Policy files without a project file share no settings but the defaults: one project of the run's, at the first root.
      const group = groups.get(file);
      if (group) group.files.push(...policies);
      else groups.set(file, { ...(file === null ? {} : { projectFile: file }), dir: file === null ? place.root : path.dirname(file), files: [...policies] });
    }
  }
  return [...groups.values()].sort((a, b) => Number(a.projectFile === undefined) - Number(b.projectFile === undefined) || compareStrings(a.projectFile ?? a.dir, b.projectFile ?? b.dir));
}

/**
 * `--project FILE` (design: "One answer from any directory", release 5) selects the project FILE
 * defines: of the policy files under the paths, only those whose nearest project file is FILE are
 * read. A path of other projects' files alone is left out; a path that mixes them is narrowed to
 * FILE's directory when no other project lies in it, else to FILE's own files.
 * @throws RunError when FILE does not exist, or no policy file under the paths has it as its nearest
 */
async function selectedProject(
  cwd: string,
  projectFlag: string,
  places: readonly PathPlace[],
  all: readonly ProjectPlace[],
): Promise<{ project: ProjectPlace; paths: string[]; notice: string | undefined }> {
  const file = path.resolve(cwd, projectFlag);
  if (!(await pathExists(file))) throw new RunError(`--project ${projectFlag}: no such file`);
  const project = all.find((one) => one.projectFile === file);
  if (project === undefined) {
    const shown = all.map((one) => (one.projectFile === undefined ? 'none' : relativePosix(cwd, one.projectFile)));
    throw new RunError(`--project ${projectFlag}: no policy file under ${places.map((place) => place.given).join(' ')} has it as its nearest project file (theirs: ${shown.join(', ')}); nothing was read`);
  }
  const dir = path.dirname(file);
  const nested = all.some((one) => one !== project && isInside(dir, one.dir));
  const paths = places.flatMap((place) => {
    const mine = place.projectFiles.get(file) ?? [];
    const count = [...place.projectFiles.values()].reduce((sum, files) => sum + files.length, 0);
    if (mine.length === count) return [place.given];
    if (mine.length === 0) return [];
    return !nested && isInside(path.resolve(cwd, place.given), dir) ? [dir] : mine;
  });
  const skipped = all.filter((one) => one !== project).reduce((sum, one) => sum + one.files.length, 0);
  const notice = skipped === 0 ? undefined : `--project ${projectFlag}: ${skipped} policy ${skipped === 1 ? 'file' : 'files'} of other projects skipped`;
  return { project, paths: [...new Set(paths)], notice };
}
