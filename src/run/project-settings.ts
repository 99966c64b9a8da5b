/**
 * The context of each project of a run of several (design: "Many projects, one run"): the run's
 * settings as they would be with that project alone (its owner, read mode, limits, rules, drift,
 * prune and DNS check from its own project file; a flag or input beats each), but with the run's
 * one target, key, secrets, today and HEAD. `plan` and `apply` plan each project under its own
 * (src/commands/run-projects.ts).
 */
import path from 'node:path';
import { relativePosix } from '../relative-path.js';
import { isInside } from '../files.js';
import type { RunPlace } from './place.js';
import type { RunProject } from './projects.js';
import { projectRecordOf } from './context.js';
import type { PlanProject, SafetyLimits } from '../plan/types.js';

/** What a project's settings are made from: the run's, and how settingsFrom resolves a project file's. */
export interface ProjectSettingsSources<S> {
  /** The run's settings (its target, key, secrets, today, HEAD, notify environment). */
  run: S;
  /** The run's working directory, which the projects' files are named relative to. */
  cwd: string;
  /** settingsFrom over one project's place and project file (flag > environment > project file > default). */
  settingsOf: (place: RunPlace, project: RunProject) => S;
  /** A saved plan's projects: each project's recorded limits, which the flags' beat. */
  saved?: readonly PlanProject[];
  /** The limits the flags set (a saved plan's recorded limits fill the rest). */
  flagLimits?: SafetyLimits;
}

type Settings = Omit<RunPlace, 'projects'> & {
  projects: RunProject[];
  limits: SafetyLimits;
  baseUrl?: string;
  baseUrlFrom?: string;
  emulator: boolean;
  projectRecord: unknown;
  head?: string;
  dns: unknown;
};

/**
 * @returns one context per project of `run`, in the run's order of projects; [] for a run of one
 */
export async function projectContexts<S extends Settings>(sources: ProjectSettingsSources<S>): Promise<S[]> {
  const { run } = sources;
  if (run.projects.length < 2) return [];
  return Promise.all(
    run.projects.map(async (project) => {
      const place = projectPlace(run, project, sources.cwd);
      const own = sources.settingsOf(place, project);
      const recorded = sources.saved?.find((one) => one.name === project.name);
      const limits = recorded ? { ...recorded.limits, ...sources.flagLimits } : own.limits;
      const { baseUrl: _url, baseUrlFrom: _from, projectBaseUrlIgnored: _ignored, ...rest } = own as S & { projectBaseUrlIgnored?: true };
      return {
        ...run,
        ...rest,
        // One target per run: the run's, never a project file's.
        ...pick(run, ['baseUrl', 'baseUrlFrom', 'projectBaseUrlIgnored', 'targetNotice', 'emulator']),
        projects: [project],
        limits,
        dns: project.dns ?? null,
        projectRecord: await projectRecordOf(project.projectFile, run.base),
        ...(run.head === undefined ? {} : { head: run.head }),
      };
    }),
  );
}

/**
 * A project's place in the run: its directory as its path when the run's paths hold all of it and
 * no other project of the run lies in it (so pruning finds its deleted files), else its files.
 * Then pruning reads the history of its directory (a project without a project file: of the run's
 * paths) without the other projects' folders in it (`prunePlace`), so each deleted file is pruned
 * by the project whose folder held it.
 */
export function projectPlace(run: Omit<RunPlace, 'projects'> & { projects: readonly RunProject[] }, project: RunProject, cwd: string): RunPlace {
  const { base } = run;
  const inner = run.projects.filter((other) => other !== project && other.projectFile !== undefined && isInside(project.dir, other.dir));
  const covered = run.paths.some((one) => isInside(path.resolve(base, one), project.dir));
  const own = project.projectFile === undefined ? [...run.paths] : covered ? [relativePosix(base, project.dir) || '.'] : null;
  const paths = own !== null && project.projectFile !== undefined && inner.length === 0 ? own : project.files.map((file) => relativePosix(base, path.resolve(cwd, file)) || '.');
  const prunePlace = own !== null && inner.length > 0 ? { paths: own, excluded: inner.map((other) => relativePosix(base, other.dir)) } : undefined;
  const { notice: _notice, prunePlace: _run, ...place } = run;
  return { ...place, paths, projects: [project], ...(project.projectFile === undefined ? {} : { projectFile: project.projectFile }), ...(prunePlace ? { prunePlace } : {}) };
}

function pick<T extends object>(from: T, keys: readonly string[]): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const key of keys) if ((from as Record<string, unknown>)[key] !== undefined) out[key] = (from as Record<string, unknown>)[key];
  return out as Partial<T>;
}
