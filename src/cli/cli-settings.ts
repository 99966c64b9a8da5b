/** The run's settings from a command's flags: the CLI's side of src/run/settings.ts. */
import { resolveSettings, type RunSettings, type SettingFlags, type SettingSources } from '../run/settings.js';
import { printDiagnostics, printNotice } from './print.js';
import { contextFlags, dnsRequest, type DnsFlags } from './options.js';
import type { Diagnostic } from '../policy/types.js';

/**
 * Resolves the run's settings once, from the command's flags, the environment and the project
 * file found from `paths` (src/run/settings.ts); the project file's problems go to stderr.
 * @throws RunError when the project file has an error or a setting is invalid
 */
export function cliSettings(paths: readonly string[], flags: SettingFlags & DnsFlags, saved?: SettingSources['saved']): Promise<RunSettings> {
  const { project, command } = contextFlags();
  return resolveSettings({
    cwd: process.cwd(),
    paths,
    flags: settingFlagsOf(flags),
    env: process.env,
    report: printDiagnostics,
    notice: printNotice,
    ...(command === undefined ? {} : { command, manyProjects: MANY_PROJECTS.has(command) }),
    ...(project === undefined ? {} : { projectFile: project }),
    ...(saved === undefined ? {} : { saved }),
  });
}

/**
 * validate's settings, resolved as every run's (src/run/settings.ts) but offline: the project
 * file's findings come back to be shown as validate's own, and its errors do not stop the run.
 * @throws RunError when a setting is invalid
 */
export async function cliOfflineSettings(paths: readonly string[], flags: DnsFlags): Promise<{ settings: RunSettings; projectFindings: Diagnostic[] }> {
  const { project } = contextFlags();
  const projectFindings: Diagnostic[] = [];
  const settings = await resolveSettings({
    cwd: process.cwd(),
    paths,
    flags: settingFlagsOf(flags),
    env: process.env,
    report: (diagnostics) => projectFindings.push(...diagnostics),
    offline: true,
    notice: printNotice,
    command: 'validate',
    manyProjects: true,
    ...(project === undefined ? {} : { projectFile: project }),
  });
  return { settings, projectFindings };
}

/**
 * The commands that read each policy file under its own project file, so run over several
 * projects at once (design: "Many projects, one run"); adopt takes one at a time.
 */
const MANY_PROJECTS: ReadonlySet<string> = new Set(['validate', 'who', 'inventory', 'import', 'plan', 'apply']);

/** The flags a command was given that are settings (commander also hands over its own). */
function settingFlagsOf(flags: SettingFlags & DnsFlags): SettingFlags {
  const { read, listing, concurrency, requestTimeout, emulator, maxRemovals, maxRemovalPercent, allowEmpty, prune } = flags;
  return { read, listing, concurrency, requestTimeout, emulator, maxRemovals, maxRemovalPercent, allowEmpty, prune, dnsCheck: dnsRequest(flags) };
}
