/** The run's settings from a command's flags: the CLI's side of src/run/settings.ts. */
import { resolveSettings, type RunSettings, type SettingFlags } from '../run/settings.js';
import { printDiagnostics } from './print.js';

/**
 * Resolves the run's settings once, from the command's flags, the environment and the project
 * file found from `paths` (src/run/settings.ts); the project file's problems go to stderr.
 * @throws RunError when the project file has an error or a setting is invalid
 */
export function cliSettings(paths: readonly string[], flags: SettingFlags): Promise<RunSettings> {
  return resolveSettings({ cwd: process.cwd(), paths, flags: settingFlagsOf(flags), env: process.env, report: printDiagnostics });
}

/** The flags a command was given that are settings (commander also hands over its own). */
function settingFlagsOf(flags: SettingFlags): SettingFlags {
  const { read, listing, concurrency, requestTimeout, emulator, maxRemovals, maxRemovalPercent, allowEmpty, prune } = flags;
  return { read, listing, concurrency, requestTimeout, emulator, maxRemovals, maxRemovalPercent, allowEmpty, prune };
}
