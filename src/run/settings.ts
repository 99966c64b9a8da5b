/**
 * The settings of one run, resolved once at the edge: the CLI (from flags) and the action (from
 * inputs) each call {@link resolveSettings} once and hand the result, plain data, whole to the
 * core (src/reconcile, src/connect/connect.ts). Every default and every precedence rule lives here:
 * flag or input > environment > project file > default. Nothing below this module applies a
 * default of its own.
 *
 * To add a setting: a field in {@link SettingFlags} (the flag or input, undefined when not given),
 * a field in {@link RunSettings}, one line in {@link settingsFrom} (and its environment variable
 * or project-file key there, if it has one), its default in numbers.ts or beside its module.
 */
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { Diagnostic, ProjectConfig } from '../policy/types.js';
import type { SafetyLimits } from '../plan/types.js';
import type { ReadMode } from '../service/types.js';
import { loadProjectConfig, PROJECT_FILE } from '../policy/project.js';
import { DEFAULT_OWNER } from '../plan/ownership.js';
import { pruneSetting } from '../history/prune.js';
import { dnsConfig, resolveDnsServers, type DnsCheckSettings, type DnsRequest } from './dns.js';
import { DEFAULT_READ_MODE } from '../service/read-mode.js';
import { DEFAULT_CONCURRENCY, DEFAULT_REQUEST_TIMEOUT_SECONDS } from '../service/defaults.js';
import { locateRun, STATE_DIR, type RunPlace } from './place.js';
import { invalidProjects, oneProjectAtATime, oneTarget, projectName, projectWithPlan, type RunProject } from './projects.js';
import type { PlanContext, PlanProject, ProjectFileRecord } from '../plan/types.js';
import { planMoment } from '../policy/clock.js';
import { ciVariable } from './ci.js';
import { firstSet, nonEmpty, notifyEnvOf, readFromEnv, timeoutFromEnv, todayOf } from './env-settings.js';
import { baseRepository, headCommit, type Repository } from '../git/repository.js';
import { useProjectFile } from '../hint.js';

export { projectScopes, type RunProject } from './projects.js';
import { checkSavedProject, projectHereFor, projectRecordOf, savedRunHere } from './context.js';
import { configuredSecrets } from './secrets.js';
import { projectContexts } from './project-settings.js';
import { savedProjectsPlace } from './saved-projects.js';
import type { NamedSecret } from '../policy/secret-scan.js';


/** What the front end was given (a flag or an action input); undefined when not given. */
export interface SettingFlags {
  /** `--read` / input `read`. */
  read?: ReadMode;
  /** `--listing` / input `listing`: the old name of `read`, kept for one release. */
  listing?: ReadMode;
  concurrency?: number;
  /** Seconds per request attempt. */
  requestTimeout?: number;
  /** `--emulator`: the embedded emulator, whatever else is set. */
  emulator?: boolean;
  /** The action's `base-url` and `api-key` inputs (the CLI takes them from the environment only). */
  baseUrl?: string;
  apiKey?: string;
  maxRemovals?: number;
  /** `--max-removal-percent` / input `max-removal-percent`: beats safety.maxRemovalPercent. */
  maxRemovalPercent?: number;
  allowEmpty?: boolean;
  /** `--prune` / `--no-prune`. */
  prune?: boolean;
  /** `--dns`, `--dns-server`, `--dns-strict` / inputs `dns`, `dns-servers`, `dns-strict`. */
  dnsCheck?: DnsRequest;
}

/** One run's settings. Holds the run's credentials: never print it. */
export interface RunSettings extends RunPlace {
  /**
   * The project file's content (`{}` without one; `project.file` is its path). A run of several
   * projects (`projects`) has none of its own here: each file is read under its own project's.
   */
  project: ProjectConfig;
  /** The run's projects, each with its project file's content; one at least (settingsIn: one without a project file). */
  projects: RunProject[];
  /** This repository's owner, recorded in every write's marker: `owner` of the project file, else DEFAULT_OWNER. */
  owner: string;
  read: ReadMode;
  concurrency: number;
  requestTimeoutMs: number;
  emulator: boolean;
  /** The service's base URL, when one is configured (else the embedded emulator may stand in). */
  baseUrl?: string;
  /** Where `baseUrl` came from, for messages: `AUTOJOIN_BASE_URL`, `autojoin-sync.yaml`, … */
  baseUrlFrom?: string;
  /** Set when the project file's `baseUrl` is not used (a pull request could change it): no message advises setting it there. */
  projectBaseUrlIgnored?: true;
  /** Said once before the run connects: the projects' `baseUrl`s a flag or environment target set aside (a run has one target). */
  targetNotice?: string;
  apiKey?: string;
  /** Where `apiKey` came from: `AUTOJOIN_API_KEY`, `VORTEX_API_KEY` or `input api-key`. */
  apiKeyFrom?: string;
  accessToken?: string;
  /** The run's secrets (src/run/secrets.ts; the key given as a flag or input among them): no policy file or written file may hold them. */
  secrets: readonly NamedSecret[];
  limits: SafetyLimits;
  /** Clear the scopes git history declared and no file declares now: the flag, else the project file; unset: on (history/prune.ts). */
  prune?: boolean;
  /** The DNS check (src/run/dns.ts): the flag or input, else dns: in the project file; null when off. Resolver hosts are addresses once resolveSettings returns. */
  dns: DnsCheckSettings | null;
  /** The project file as a plan records it (path from `base`, sha256); null without one. */
  projectRecord: ProjectFileRecord | null;
  /** The UTC day of the run (`AUTOJOIN_NOW` in tests): read once, here. */
  today: string;
  /** The moment the run's plan says it was made (ISO 8601; the clock moved to `today`): read once, here. */
  now: string;
  /** The variable that says this is CI (`CI`, `GITHUB_ACTIONS`, …; src/run/ci.ts), null when none: read once, here. */
  ci: string | null;
  /** The environment notifications read (`AUTOJOIN_NOTIFY_*`, the CI run's facts), read once here. */
  notifyEnv: Readonly<Record<string, string>>;
  /** The commit HEAD points to in `base`'s repository; undefined outside git. */
  head?: string;
  /** `base`'s repository as read for `head`, so pruning from `base` reads it once; undefined outside git. */
  baseRepository?: Repository;
  /** A run of several projects (plan, apply): each project's context, as the run would be with it alone (src/run/project-settings.ts); absent for a run of one. */
  perProject?: RunSettings[];
  /** A project's context in a run of several: the owners of the run's projects, from whose markers a scope moves without a take-over (src/plan/run-owners.ts). */
  runOwners?: readonly string[];
}

/** One run's context: its settings with today, HEAD and the project file's record (src/run/context.ts). Holds credentials: never print it. */
export type RunContext = RunSettings;

export interface SettingSources {
  /** What relative paths are relative to; nothing else depends on it. */
  cwd: string;
  paths: readonly string[];
  flags: SettingFlags;
  env: NodeJS.ProcessEnv;
  /** False in a pull request: the repository's own project file may not choose where the key goes, nor the DNS resolvers the plan trusts. */
  trustProjectBaseUrl?: boolean;
  /** Shows the project file's diagnostics (stderr, annotations), named relative to `base`; called once, before any error. */
  report: (diagnostics: readonly Diagnostic[], base: string) => void;
  /** Where the front end showed them, for the error: `see above`. */
  seeWhere?: string;
  /** `--project FILE`: the project file, whatever is nearer; policy files outside its directory are refused. */
  projectFile?: string;
  /** `apply --plan`: the saved plan's context (its project file at the recorded path, never the one the paths find) and the plan's name. */
  saved?: { context: PlanContext; file: string; projects?: readonly PlanProject[]; sources?: readonly { file: string; project: string }[] };
  /** validate: the project file's errors are reported but do not stop the run (validate shows them as findings), and nothing is recorded (no HEAD, no project record). */
  offline?: boolean;
  /** Where a notice of the place goes (`--project` skipped files of other projects); default: nowhere. */
  notice?: (message: string) => void;
  /** The command run (`plan`, `apply`, …), as the refusal of a run of several projects names it. */
  command?: string;
  /** The command reads each policy file under its own project file (validate, who, inventory, import, presets); else a run of several projects is refused. */
  manyProjects?: boolean;
}

/**
 * Finds the run's place and project file from its paths, reports the project file's diagnostics,
 * and resolves every setting.
 * @throws RunError (exit 1) when the project file has an error, or a setting's value is invalid
 */
export async function resolveSettings(sources: SettingSources): Promise<RunSettings> {
  const { place, project, projects: found } = await resolvePlace(sources);
  // Each project's DNS check, from its own project file (a run of one: the run's).
  const projects = await Promise.all(found.map(async (one) => ({ ...one, dns: await resolveDnsServers(projectDns(one.config, sources)) })));
  const settings = { ...oneTarget(settingsFrom(place, project, sources), projects, sources), projects };
  if (sources.offline) return { ...settings, dns: await resolveDnsServers(settings.dns) };
  const withSaved = sources.saved ? { ...settings, limits: { ...sources.saved.context.limits, ...definedOnly(settings.limits, sources.flags) } } : settings;
  const repository = await baseRepository(place.base);
  const head = headCommit(repository);
  const run: RunSettings = { ...withSaved, dns: await resolveDnsServers(settings.dns), projectRecord: await projectRecordOf(place.projectFile, place.base), ...defined('head', head), ...defined('baseRepository', repository) };
  const perProject = await projectContexts({
    run,
    cwd: sources.cwd,
    settingsOf: (at, one) => ({ ...settingsFrom(at, one.config, sources), projects: [one] }),
    ...(sources.saved?.projects ? { saved: sources.saved.projects, flagLimits: definedOnly(settings.limits, sources.flags) } : {}),
  });
  // A scope moved between the run's projects is an owner move, not a take-over (src/plan/run-owners.ts).
  const runOwners = perProject.map((one) => one.owner);
  return perProject.length === 0 ? run : { ...run, perProject: perProject.map((one) => ({ ...one, runOwners })) };
}

/** The limits the flags set (a saved plan's recorded limits fill the rest). */
function definedOnly(limits: SafetyLimits, flags: SettingFlags): SafetyLimits {
  return {
    ...defined('maxRemovals', flags.maxRemovals),
    ...defined('maxRemovalPercent', flags.maxRemovalPercent),
    ...(flags.allowEmpty ? { allowEmpty: limits.allowEmpty } : {}),
  };
}

/** Where the run is (place.ts) and its project files, whose diagnostics are reported and whose errors stop the run. */
async function resolvePlace(
  sources: Pick<SettingSources, 'cwd' | 'paths' | 'report' | 'seeWhere' | 'projectFile' | 'saved' | 'offline' | 'command' | 'manyProjects' | 'notice'>,
): Promise<{ place: RunPlace; project: ProjectConfig; projects: RunProject[] }> {
  if (sources.saved && sources.projectFile !== undefined) throw projectWithPlan();
  const saved = sources.saved;
  const place = saved?.projects ? await savedProjectsPlace(sources.cwd, { ...saved, projects: saved.projects, sources: saved.sources ?? [] }) : saved ? await savedPlace(sources.cwd, saved) : await locateRun(sources.cwd, sources.paths, sources.projectFile);
  if (place.notice !== undefined) sources.notice?.(place.notice);
  const loads = await Promise.all(place.projects.map((one) => loadProjectConfig(one.projectFile, place)));
  sources.report(loads.flatMap((load) => load.diagnostics), place.base);
  const projects = place.projects.map((one, index): RunProject => ({ ...one, config: loads[index]?.config ?? {}, name: projectName(one, place.base) }));
  const invalid = projects.filter((_, index) => loads[index]?.diagnostics.some((d) => d.severity === 'error'));
  if (!sources.offline && invalid.length > 0) throw invalidProjects(invalid, sources.seeWhere);
  if (projects.length > 1 && !sources.manyProjects) throw oneProjectAtATime(sources.command ?? 'this command', projects, sources.cwd);
  const one = projects.length === 1 ? projects[0] : undefined;
  // Every hint of this run (src/run-values.ts) that names a project setting names this file from here on.
  if (!sources.offline && one) useProjectFile(one.projectFile === undefined ? null : one.name);
  return { place, project: one?.config ?? {}, projects };
}

/**
 * `apply --plan`: the run is in the repository of its directory, and its project file is the
 * one at the path the plan recorded, which must be the plan's byte for byte (else RunError).
 */
async function savedPlace(cwd: string, saved: NonNullable<SettingSources['saved']>): Promise<RunPlace> {
  const recorded = saved.context.projectFile;
  // The recorded project file first: read as any project file is (a FIFO or a path out is refused here), then placed.
  checkSavedProject(recorded, await projectHereFor(recorded, cwd), saved.file);
  const here = await savedRunHere(cwd, recorded);
  const projectFile = recorded === null ? here.projectFile : join(here.base, ...recorded.path.split('/'));
  const { projectFile: _found, ...rest } = here;
  return { ...rest, ...(projectFile === undefined ? {} : { projectFile }) };
}

/** Pure: flag > environment > project file > default, for every setting. */
export function settingsFrom(place: RunPlace, project: ProjectConfig, sources: Pick<SettingSources, 'flags' | 'env' | 'trustProjectBaseUrl'>): Omit<RunSettings, 'projects'> {
  const { flags, env } = sources;
  const baseUrl = firstSet<string>([
    ['input base-url', flags.baseUrl],
    ['AUTOJOIN_BASE_URL', nonEmpty(env.AUTOJOIN_BASE_URL)],
    ['VORTEX_API_BASE_URL', nonEmpty(env.VORTEX_API_BASE_URL)],
    [PROJECT_FILE, sources.trustProjectBaseUrl === false ? undefined : project.baseUrl],
  ]);
  const apiKey = firstSet<string>([
    ['input api-key', flags.apiKey],
    ['AUTOJOIN_API_KEY', nonEmpty(env.AUTOJOIN_API_KEY)],
    ['VORTEX_API_KEY', nonEmpty(env.VORTEX_API_KEY)],
  ]);
  return {
    ...place,
    project,
    owner: project.owner ?? DEFAULT_OWNER,
    read: flags.read ?? flags.listing ?? readFromEnv(env) ?? project.read ?? project.listing ?? DEFAULT_READ_MODE,
    concurrency: flags.concurrency ?? DEFAULT_CONCURRENCY,
    requestTimeoutMs: (flags.requestTimeout ?? timeoutFromEnv(env) ?? DEFAULT_REQUEST_TIMEOUT_SECONDS) * 1000,
    emulator: flags.emulator ?? false,
    ...(baseUrl ? { baseUrl: baseUrl[1], baseUrlFrom: baseUrl[0] } : {}),
    ...(sources.trustProjectBaseUrl === false ? { projectBaseUrlIgnored: true as const } : {}),
    ...(apiKey ? { apiKey: apiKey[1], apiKeyFrom: apiKey[0] } : {}),
    ...defined('accessToken', nonEmpty(env.AUTOJOIN_ACCESS_TOKEN)),
    // The key given in the flags' place (input api-key) counts as AUTOJOIN_API_KEY does.
    secrets: configuredSecrets(flags.apiKey ? { ...env, AUTOJOIN_API_KEY: flags.apiKey } : env),
    limits: {
      maxRemovals: flags.maxRemovals ?? project.safety?.maxRemovals,
      maxRemovalPercent: flags.maxRemovalPercent ?? project.safety?.maxRemovalPercent,
      allowEmpty: flags.allowEmpty ?? false,
    },
    ...defined('prune', flags.prune ?? pruneSetting(project)),
    // In a pull request the project file names no resolver either: the plan trusts its answers.
    dns: projectDns(project, sources),
    projectRecord: null,
    today: todayOf(env),
    now: planMoment(env).toISOString(),
    ci: ciVariable(env),
    notifyEnv: notifyEnvOf(env),
  };
}

/** A project's DNS check, as settingsFrom resolves the run's. */
function projectDns(project: ProjectConfig, sources: Pick<SettingSources, 'flags' | 'env' | 'trustProjectBaseUrl'>): DnsCheckSettings | null {
  return dnsConfig(sources.flags.dnsCheck ?? {}, sources.trustProjectBaseUrl === false ? withoutResolvers(project) : project, sources.env);
}

/** The project file without `dns.servers`: where a pull request may have chosen them. */
function withoutResolvers(project: ProjectConfig): ProjectConfig {
  if (project.dns?.servers === undefined) return project;
  const { servers: _servers, ...dns } = project.dns;
  return { ...project, dns };
}

/**
 * The settings of a run over `paths` in `base`, with no project file looked up and no
 * environment unless given: for programs that embed the core (benches, tests).
 */
export function settingsIn(
  base: string,
  options: { paths?: string[]; project?: ProjectConfig; flags?: SettingFlags; env?: NodeJS.ProcessEnv } = {},
): RunSettings {
  const project = options.project ?? {};
  const place: RunPlace = { base, paths: options.paths ?? ['.'], roots: [realPathOf(base)], projects: [{ dir: base, files: options.paths ?? ['.'] }], stateDir: join(base, STATE_DIR) };
  const settings = settingsFrom(place, project, { flags: options.flags ?? {}, env: options.env ?? {} });
  return { ...settings, projects: [{ dir: base, files: place.paths, config: project, name: project.file ?? '.', dns: settings.dns }] };
}

function realPathOf(dir: string): string {
  try {
    return realpathSync.native(dir);
  } catch {
    return dir;
  }
}

function defined<K extends string, V>(name: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [name]: value } as Partial<Record<K, V>>);
}
