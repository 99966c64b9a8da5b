/**
 * The run context (design, "The run context"): what one run is, resolved once before anything
 * else and read by every step of plan, apply and show in both front ends. It is the run's
 * settings (settings.ts: policy files and paths, project file, owner, target settings, read mode,
 * limits, rules, prune and drift) with the three things nothing below may look up again: the
 * project file as a plan records it (path from the repository root, sha256), today (UTC, or
 * AUTOJOIN_NOW in tests) and HEAD.
 *
 * A saved plan carries the context it was made in ({@link planContextOf}); `apply --plan`
 * resolves its own from that record ({@link resolveSettings} with `saved`), never from the
 * paths, and {@link checkSavedProject} refuses a project file that is not the recorded one.
 */
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import type { PlanContext, ProjectFileRecord, SafetyLimits } from '../plan/types.js';
import type { Rule } from '../policy/types.js';
import type { ScopeKey } from '../scope.js';
import { relativePosix } from '../relative-path.js';
import { RunError } from '../output/exit-codes.js';
import { locateRun, type RunPlace } from './place.js';
import { entryExists, pathExists, readRegularFile, realRoot, recordedPathProblem, repositoryRoot } from '../files.js';
import { MAX_FILE_BYTES } from '../policy/parse.js';
import { cutText } from '../redact.js';
import type { RunScopeValues } from '../output/run-scope.js';
import type { NamedSecret } from '../policy/secret-scan.js';

/** @returns the project file as plans record it (path relative to `base`, sha256 of its bytes), or null without one. */
export async function projectRecordOf(projectFile: string | undefined, base: string): Promise<ProjectFileRecord | null> {
  if (projectFile === undefined) return null;
  // Read as the project file is read (src/policy/project.ts), never with a plain read: a FIFO, a device or a huge file is not one.
  const bytes = await readRegularFile(projectFile, { maxBytes: MAX_FILE_BYTES, what: 'project file' }).catch(() => null);
  return { path: relativePosix(base, projectFile), sha256: bytes === null ? 'absent' : sha256Of(bytes) };
}

/**
 * A saved plan's recorded project file, as this checkout has it: the recorded path joined to the
 * repository root only when it stays inside it (src/files.ts, recordedPathProblem; readSavedPlan
 * refused any other already), then read as any project file is: a regular file whose real path is
 * inside the repository, at most the project file's size cap. A path to nothing is `absent`.
 * @throws RunError for a recorded path that leaves the repository; FileAccessError for a file that is not a regular one inside it
 */
async function recordedProjectRecord(root: string, saved: ProjectFileRecord): Promise<ProjectFileRecord> {
  const problem = recordedPathProblem(saved.path);
  if (problem !== null) throw new RunError(`the saved plan's project file ${JSON.stringify(cutText(saved.path, 200))} is refused: ${problem}, so it is not a file inside the repository; nothing was read`);
  const file = join(root, ...saved.path.split('/'));
  if (!(await entryExists(file))) return { path: saved.path, sha256: 'absent' };
  const bytes = await readRegularFile(file, { maxBytes: MAX_FILE_BYTES, root: await realRoot(root), what: 'project file' });
  return { path: saved.path, sha256: sha256Of(bytes) };
}

export function sha256Of(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** What a plan made in `context` records of it. */
export function planContextOf(
  context: { projectRecord: ProjectFileRecord | null; limits: SafetyLimits; project: { rules?: Rule[] }; today: string; head?: string },
  takenOver: readonly ScopeKey[] = [],
): PlanContext {
  return {
    projectFile: context.projectRecord,
    limits: definedLimits(context.limits),
    rules: (context.project.rules ?? []),
    today: context.today,
    head: context.head ?? null,
    takeOwnership: [...new Set(takenOver)].sort(),
  };
}

function definedLimits(limits: SafetyLimits): SafetyLimits {
  return Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined));
}

/**
 * `apply --plan`: the project file of this checkout (at the recorded path, or the one found
 * here when the plan had none) must be the plan's, byte for byte.
 * @param found the project file this checkout has (at the recorded path, else the one found from the run's directory), as a record
 * @throws RunError (exit 1) naming the file and both digests
 */
export function checkSavedProject(saved: ProjectFileRecord | null, found: ProjectFileRecord | null, planFile: string): void {
  if (saved === null) {
    if (found === null) return;
    throw new RunError(
      `${planFile} was made without a project file, but this checkout has ${found.path} (sha256 ${found.sha256}); ` +
        'its owner, limits and rules would not be the ones the plan was checked against; make the plan again here; nothing was written',
    );
  }
  if (found?.sha256 !== saved.sha256) {
    const now = found === null || found.sha256 === 'absent' ? 'it does not exist here' : `it has sha256 ${found.sha256} here`;
    throw new RunError(
      `${planFile} was made with project file ${saved.path} (sha256 ${saved.sha256}), but ${now}; ` +
        'its owner, limits and rules are not the ones the plan was checked against; make the plan again, or apply from the checkout it was made in; nothing was written',
    );
  }
}

/**
 * The project file this checkout has for a saved plan: at the recorded path of the repository
 * of `cwd` (or, for a plan made without one, the one found from `cwd`), as a record.
 */
export async function projectHereFor(saved: ProjectFileRecord | null, cwd: string): Promise<ProjectFileRecord | null> {
  // A recorded project file is read at the repository's root before anything is placed under it.
  const root = saved === null ? null : await repositoryRoot(cwd);
  if (saved !== null && root !== null) return recordedProjectRecord(root, saved);
  const here = await savedRunHere(cwd, saved);
  return saved === null ? projectRecordOf(here.projectFile, here.base) : recordedProjectRecord(here.base, saved);
}

/**
 * Where a saved plan is applied: the repository of `cwd`, read under the project file the plan
 * recorded (its directory, as `--project FILE` reads it), so a repository with several project
 * files applies each one's plans from its root. Without a recorded project file, or when it is
 * gone (checkSavedProject then says so), the repository as a whole.
 */
export async function savedRunHere(cwd: string, saved: ProjectFileRecord | null): Promise<RunPlace> {
  const root = saved === null ? null : await repositoryRoot(cwd);
  // A recorded path that would leave the repository is never joined to it (recordedProjectRecord refuses it).
  const file = root === null || saved === null || recordedPathProblem(saved.path) !== null ? null : join(root, ...saved.path.split('/'));
  if (file === null || !(await pathExists(file))) return locateRun(cwd, ['.']);
  return locateRun(cwd, [dirname(file)], file);
}

/** `show`: the same comparison as {@link checkSavedProject}, as a warning (null when they match). */
export function savedProjectWarning(saved: ProjectFileRecord | null, found: ProjectFileRecord | null, planFile: string): string | null {
  try {
    checkSavedProject(saved, found, planFile);
    return null;
  } catch (error) {
    return (error as Error).message.replace(/; make the plan again.*$/u, '; apply --plan would refuse it here');
  }
}

/**
 * What a run is entered with once its context is resolved (src/output/run-scope.ts, nested in
 * the front end's run): the context's secrets, and the project file hints name once recorded.
 */
export function runScopeOf(context: { secrets: readonly NamedSecret[]; projectRecord: ProjectFileRecord | null }): RunScopeValues {
  return { secrets: context.secrets.map((secret) => secret.value), ...(context.projectRecord ? { projectFile: context.projectRecord.path } : {}) };
}
