/** The one "load the project file or fail" step of every front end and command. */
import { loadProjectConfig, PROJECT_FILE } from '../policy/index.js';
import type { Diagnostic, ProjectConfig } from '../policy/types.js';
import { RunError } from './exit-codes.js';

/**
 * Loads the project file for these policy paths and hands its diagnostics to `report`.
 * @param seeWhere where the front end showed the diagnostics, for the error message
 * @throws RunError (exit 1) when the project file has an error, before anything is read
 */
export async function loadProjectOrFail(
  cwd: string,
  paths: readonly string[],
  report: (diagnostics: readonly Diagnostic[]) => void,
  seeWhere = 'see above',
): Promise<ProjectConfig> {
  const { config, diagnostics } = await loadProjectConfig(cwd, paths);
  report(diagnostics);
  if (diagnostics.some((d) => d.severity === 'error')) throw new RunError(`${PROJECT_FILE} is invalid (${seeWhere})`);
  return config;
}
