/**
 * The run as a list of projects (design: "Many projects, one run"): how messages name a project,
 * the refusal of a command that takes one at a time, the run's one target, and the projects as
 * the loader reads files under them.
 */
import { hint, worded } from '../hint.js';
import { relativePosix } from '../relative-path.js';
import { RunError } from '../output/exit-codes.js';
import type { ProjectScope } from '../policy/project-scope.js';
import type { ProjectConfig } from '../policy/types.js';
import type { ProjectPlace } from './place.js';
import type { DnsCheckSettings } from './dns.js';

/** What a run's target is made of (the fields of RunSettings this module reads; settings.ts imports this module). */
interface TargetFields {
  baseUrl?: string;
  baseUrlFrom?: string;
  emulator: boolean;
  targetNotice?: string;
}

/** One project of a run with its project file's content (design: "Many projects, one run"). */
export interface RunProject extends ProjectPlace {
  /** The project file's content (`{}` without one). */
  config: ProjectConfig;
  /** How messages name it: its project file from `base`, else its directory from `base` (`.`). */
  name: string;
  /** Its DNS check (the flag or input, else its project file's `dns:`); null when off. Set once resolveSettings returns. */
  dns?: DnsCheckSettings | null;
}

/** The run's projects as the loader reads each file under its own (src/policy/load.ts). */
export function projectScopes(context: { projects: readonly RunProject[] }): ProjectScope[] {
  return context.projects.map((one) => ({ dir: one.dir, config: one.config }));
}

/** A project's name in messages: its project file from `base`, else its directory (`.` for `base`). */
export function projectName(project: ProjectPlace, base: string): string {
  return relativePosix(base, project.projectFile ?? project.dir) || '.';
}

/**
 * A command that takes one project, run over several: the projects, and how to run it for each, in the front end's words.
 * @param cwd the run's working directory (after -C): each project file is named from there, so the hint works as printed with the same -C
 */
export function oneProjectAtATime(command: string, projects: readonly RunProject[], cwd: string): RunError {
  const listed = projects.map((one) => `${one.projectFile === undefined ? `no project file under ${one.name}` : one.name} (${one.files.length} policy ${one.files.length === 1 ? 'file' : 'files'})`);
  const each = projects.map((one) => (one.projectFile === undefined ? `the paths ${one.files.slice(0, 3).join(' ')}${one.files.length > 3 ? ' …' : ''}` : worded`${hint('project', relativePosix(cwd, one.projectFile))}`));
  return new RunError(`${command} takes one project at a time, and the paths of this run hold ${projects.length}: ${listed.join(', ')}; run ${command} once per project: ${each.join('; ')}`);
}

/**
 * One target per run (design: "One target, one client"): the flag or input, else the environment,
 * else the projects' `baseUrl`, which must then be the same in every project that sets one, so a
 * team's project file never sends the key anywhere else. A run of one project is settingsFrom's.
 * @throws RunError (exit 1, before any request) naming two project files that name different services
 */
export function oneTarget<T extends TargetFields>(
  settings: T,
  projects: readonly RunProject[],
  sources: { trustProjectBaseUrl?: boolean },
): T {
  if (projects.length < 2 || sources.trustProjectBaseUrl === false) return settings;
  const named = projects.flatMap((one) => (one.config.baseUrl === undefined ? [] : [{ name: one.name, url: one.config.baseUrl }]));
  const first = named[0];
  if (first === undefined) return settings;
  const other = named.find((one) => sameUrl(one.url) !== sameUrl(first.url));
  if (settings.baseUrl !== undefined || settings.emulator) {
    if (other === undefined) return settings;
    const from = settings.emulator ? '--emulator' : settings.baseUrlFrom;
    return { ...settings, targetNotice: `the baseUrl of ${named.map((one) => one.name).join(', ')} ${named.length === 1 ? 'is' : 'are'} not used: this run's one target is ${from}'s` };
  }
  if (other !== undefined) {
    throw new RunError(
      `the project files of this run name different services: ${first.name} (baseUrl ${first.url}) and ${other.name} (baseUrl ${other.url}); ` +
        'a run has one target: set AUTOJOIN_BASE_URL, make them the same, or run each project on its own; nothing was sent',
    );
  }
  return { ...settings, baseUrl: first.url, baseUrlFrom: named.map((one) => one.name).join(', ') };
}

/** A base URL as two project files are compared: without surrounding space or a trailing slash. */
function sameUrl(url: string): string {
  return url.trim().replace(/\/+$/u, '');
}


/** Project files with an error: nothing else is checked (named once, at their file:line:col, by the front end). */
export function invalidProjects(invalid: readonly RunProject[], seeWhere = 'see above'): RunError {
  return new RunError(`${invalid.map((one) => one.name).join(', ')} ${invalid.length === 1 ? 'is' : 'are'} invalid (${seeWhere}); nothing else was checked`);
}

/** `--project FILE` with `apply --plan`: a saved plan records its own project file. */
export function projectWithPlan(): RunError {
  return new RunError(worded`${hint('project')} selects the policy files a run reads; a saved plan (${hint('planFile')}) records its own project file: leave ${hint('project')} out`);
}
