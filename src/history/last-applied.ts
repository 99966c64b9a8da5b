/**
 * The state last applied to each scope whose files changed since this owner's marker: the policy
 * at the marker's commit, read from git under the project file of that same commit (its defaults
 * then, not today's). Per commit, one `git cat-file --batch` reads the files that declare those
 * scopes now, as they were then (a file is rarely moved); a scope not found there (its file moved
 * or was renamed since) costs one read of every policy file at that commit. A commit that is gone
 * (force-pushed away, a shallow clone) or a file that no longer parses gives no state, and the
 * plan falls back to this repository's change (three-way.ts). Never a git process per scope.
 *
 * `lastAppliedReader` starts those reads while the live state is still being read: the plan
 * builder names each scope as soon as it is held (its files changed since its marker), and the
 * files go to git at once, on one `cat-file` stream per commit, so the read is no serial tail
 * after the last live read. Only the parsing waits for the end (with the project file then).
 */
import path from 'node:path';
import { MAX_FILE_BYTES, parsePolicySources, parseProjectSource, type NamedSecret, type PolicySource } from '../policy/index.js';
import type { LastApplied, NeededScope } from '../plan/three-way.js';
import { writtenStateOf, type WrittenState } from '../plan/ownership.js';
import type { ProjectConfig } from '../policy/types.js';
import type { ScopeKey } from '../scope.js';
import { readPolicySourcesAt } from './versions.js';
import { runGit } from '../git/command.js';
import { streamBlobs, type BlobStream } from '../git/blobs.js';
import { isInside, repositoryRoot } from '../files.js';
import { relativePosix } from '../relative-path.js';
import { shortCommit } from '../redact.js';

export interface LastAppliedOptions {
  paths: readonly string[];
  cwd: string;
  /** Today's project file (only its location is used: its content at each commit is read from git). */
  project: ProjectConfig;
  secrets?: readonly NamedSecret[];
}

/**
 * @param needed the commits to read, each with the scopes wanted from it (PlanBuilder.lastAppliedNeeded)
 * @returns the state of a scope at a commit; null when the commit, or the scope in it, is unknown
 */
export function readLastApplied(needed: ReadonlyMap<string, readonly NeededScope[]>, options: LastAppliedOptions): Promise<LastApplied> {
  return lastAppliedReader(options).read(needed);
}

/** Reads the state last applied as the scopes that need it are found (see the head of this file). */
export interface LastAppliedReader {
  /** A scope held for its state at `commit`: its file is asked of git now. */
  need(commit: string, scope: NeededScope): void;
  /** @returns the states of `needed` (every scope held), from what was read ahead and what was not. */
  read(needed: ReadonlyMap<string, readonly NeededScope[]>): Promise<LastApplied>;
  /** Nothing will be read (the plan stopped): lets the git processes go. */
  abandon(): void;
}

/** Files read ahead at one commit: the stream to git, the files asked for, and what came back. */
interface ReadAhead {
  stream: BlobStream;
  asked: Set<string>;
  sources: PolicySource[];
  /** The project file then, read on the same stream; `asked` settles once it was asked of the stream. */
  project: { asked: Promise<void>; config: Promise<ProjectConfig> };
}

export function lastAppliedReader(options: LastAppliedOptions): LastAppliedReader {
  const ahead = new Map<string, ReadAhead>();
  let abandoned = false;
  let projectFile: Promise<string | undefined> | undefined;
  const ask = (commit: string, file: string): void => {
    let reading = ahead.get(commit);
    if (reading === undefined) {
      const stream = streamBlobs({ cwd: options.cwd, context: `the state last applied at ${shortCommit(commit)}`, maxBytes: MAX_FILE_BYTES });
      projectFile ??= projectFileInRepository(options);
      reading = { stream, asked: new Set(), sources: [], project: projectAt(commit, stream, projectFile, options, () => abandoned) };
      ahead.set(commit, reading);
    }
    if (reading.asked.has(file)) return;
    reading.asked.add(file);
    const sources = reading.sources;
    reading.stream.read(`${commit}:./${file}`, (read) => {
      if (read.kind === 'blob') sources.push({ file, text: read.bytes.toString('utf8') });
    });
  };
  return {
    need(commit, scope) {
      if (HEX_COMMIT.test(commit)) ask(commit, scope.file);
    },
    async read(needed) {
      for (const [commit, scopes] of needed) if (HEX_COMMIT.test(commit)) for (const scope of scopes) ask(commit, scope.file);
      const read = async (commit: string): Promise<{ sources: PolicySource[]; project: ProjectConfig } | undefined> => {
        const reading = ahead.get(commit);
        if (reading === undefined) return undefined;
        await reading.project.asked;
        await reading.stream.close();
        return { sources: reading.sources, project: await reading.project.config };
      };
      return collectStates(needed, options, read);
    },
    abandon() {
      abandoned = true;
      for (const reading of ahead.values()) reading.stream.close().catch(() => undefined);
    },
  };
}

const HEX_COMMIT = /^[0-9a-f]{40,64}$/;

/** What was read of one commit: its files (those that were there then) and its project file. */
type ReadAt = (commit: string) => Promise<{ sources: PolicySource[]; project: ProjectConfig } | undefined>;

async function collectStates(needed: ReadonlyMap<string, readonly NeededScope[]>, options: LastAppliedOptions, readAt: ReadAt): Promise<LastApplied> {
  const states = new Map<string, Map<ScopeKey, WrittenState>>();
  const commitDays = new Map<string, string>();
  for (const [commit, scopes] of needed) {
    // Expiry is evaluated on the day of the write; a marker without that day: the commit's date.
    const day = scopes.every((scope) => scope.applied) ? undefined : await commitDay(commit, options.cwd);
    if (day !== undefined) commitDays.set(commit, day);
    const days = [...new Set(scopes.map((scope) => scope.applied ?? day))];
    const found = await statesAt(commit, scopes, options, days, readAt).catch(() => new Map<string | undefined, Map<ScopeKey, WrittenState>>());
    for (const [at, byKey] of found) states.set(`${commit} ${at ?? ''}`, byKey);
  }
  return (commit, key, applied) => states.get(`${commit} ${applied ?? commitDays.get(commit) ?? ''}`)?.get(key) ?? null;
}

/** @returns the UTC date of a commit (its committer date); undefined when git cannot say */
async function commitDay(commit: string, cwd: string): Promise<string | undefined> {
  if (!HEX_COMMIT.test(commit)) return undefined;
  try {
    const seconds = Number((await runGit(['show', '-s', '--format=%ct', commit], { cwd, context: 'the date of the commit last applied' })).toString('utf8').trim());
    return Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000).toISOString().slice(0, 10) : undefined;
  } catch {
    return undefined;
  }
}

async function statesAt(commit: string, scopes: readonly NeededScope[], options: LastAppliedOptions, days: readonly (string | undefined)[], readAt: ReadAt): Promise<Map<string | undefined, Map<ScopeKey, WrittenState>>> {
  const byDay = new Map<string | undefined, Map<ScopeKey, WrittenState>>();
  const read = HEX_COMMIT.test(commit) ? await readAt(commit) : undefined;
  if (read === undefined) return byDay;
  const { sources, project } = read;
  const first = statesOf(sources, project, options, days[0]);
  // A scope not found there (its file moved since): every policy file at that commit, read once.
  const all = scopes.some((scope) => !first.has(scope.key)) ? await readPolicySourcesAt(commit, options.paths, options.cwd) : [];
  for (const day of days) byDay.set(day, new Map([...statesOf(sources, project, options, day), ...statesOf(all, project, options, day)]));
  return byDay;
}

function statesOf(sources: readonly PolicySource[], project: ProjectConfig, options: LastAppliedOptions, day: string | undefined): Map<ScopeKey, WrittenState> {
  const { policies } = parsePolicySources(sources, { project, secrets: options.secrets, ...(day ? { today: day } : {}) });
  return new Map(policies.map((policy) => [policy.key, writtenStateOf(policy)]));
}

/**
 * The project file as it was at `commit`, asked of that commit's stream (no git process of its
 * own); {} when it was not there, did not parse, or the run has none.
 */
function projectAt(commit: string, stream: BlobStream, file: Promise<string | undefined>, options: LastAppliedOptions, abandoned: () => boolean): ReadAhead['project'] {
  let settle: (config: ProjectConfig) => void = () => undefined;
  const config = new Promise<ProjectConfig>((resolve) => (settle = resolve));
  const asked = file.then((name) => {
    if (name === undefined || abandoned()) settle({});
    else stream.read(`${commit}:${name}`, (read) => settle(read.kind === 'blob' ? projectOf(read.bytes, options) : {}));
  });
  return { asked, config };
}

function projectOf(bytes: Buffer, options: LastAppliedOptions): ProjectConfig {
  try {
    return parseProjectSource({ file: options.project.file ?? '', text: bytes.toString('utf8') }, options.project.file ?? '').config;
  } catch {
    return {};
  }
}

/** @returns today's project file as a path from the repository's top (how git names it at a commit); undefined when there is none */
async function projectFileInRepository(options: LastAppliedOptions): Promise<string | undefined> {
  const file = options.project.file;
  if (!file) return undefined;
  const top = (await repositoryRoot(path.resolve(options.cwd))) ?? (await gitTop(options.cwd));
  const absolute = path.resolve(options.cwd, file);
  return top === undefined || top === absolute || !isInside(top, absolute) ? undefined : relativePosix(top, absolute);
}

/** The top of the repository when no `.git` lies above `cwd` (GIT_DIR, say). */
async function gitTop(cwd: string): Promise<string | undefined> {
  try {
    return (await runGit(['rev-parse', '--show-toplevel'], { cwd, context: 'the project file last applied' })).toString('utf8').trim();
  } catch {
    return undefined;
  }
}
