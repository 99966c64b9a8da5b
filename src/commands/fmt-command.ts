/**
 * The fmt command over the run's place (src/cli/commands/fmt.ts): the policy files under the
 * paths found, read (contained in their own repository) and named as plan names them, each put in
 * canonical form and, unless only checking, written back. The front end prints the names or the
 * diffs and the problems.
 */
import path from 'node:path';
import { writeFileAtomic } from '../files.js';
import { ExitCode, type ExitCodeValue } from '../output/exit-codes.js';
import { checkPolicyFilesFound, discoverPolicyFiles, formatPolicyText, readPolicySources, tolerateMissingPaths, type Diagnostic, type PolicySource } from '../policy/index.js';
import type { RunPlace } from '../run/place.js';

export interface FmtCommand {
  place: Pick<RunPlace, 'paths' | 'base' | 'roots'>;
  /** `--check`: change nothing, only say what would change. */
  check: boolean;
  /** `--allow-no-policies`: a path without policy files is not refused. */
  allowNoPolicies?: boolean;
}

export interface FmtOutcome {
  /** How many policy files were found. */
  files: number;
  /** Each file not in canonical form, as it was and as fmt writes it (written unless checking). */
  changed: { file: string; before: string; after: string }[];
  /** What kept a file from being formatted, and the missing paths. */
  problems: Diagnostic[];
  /** How many files have an error and could not be formatted. */
  unformatted: number;
  /** 1 when a file could not be formatted, or when checking and a file would change. */
  exitCode: ExitCodeValue;
}

/** @throws NoPoliciesError when a path holds no policy file (unless allowed); nothing is written then */
export async function fmtCommand(command: FmtCommand): Promise<FmtOutcome> {
  const { place, check } = command;
  const { files, sources, problems } = await readSources(place, command.allowNoPolicies);
  const changed: FmtOutcome['changed'] = [];
  for (const source of sources) {
    const result = formatPolicyText(source);
    problems.push(...result.diagnostics);
    if (!result.changed || result.text === undefined) continue;
    changed.push({ file: source.file, before: source.text, after: result.text });
    if (!check) await writeFileAtomic(path.resolve(place.base, source.file), result.text);
  }
  const unformatted = new Set(problems.filter(isError).map((problem) => problem.file)).size;
  const failed = unformatted > 0 || (check && changed.length > 0);
  return { files, changed, problems, unformatted, exitCode: failed ? ExitCode.error : ExitCode.ok };
}

/**
 * Finds and reads the policy files under `paths`. Paths without any policy file are refused
 * (NoPoliciesError, nothing written), as validate refuses them, unless `allowNoPolicies`.
 */
async function readSources(
  { paths, base: cwd, roots }: FmtCommand['place'],
  allowNoPolicies?: boolean,
): Promise<{ files: number; sources: PolicySource[]; problems: Diagnostic[] }> {
  const discovery = await discoverPolicyFiles(paths, cwd);
  const read = await readPolicySources(discovery.files, cwd, roots);
  const problems = tolerateMissingPaths([...discovery.diagnostics, ...read.diagnostics], allowNoPolicies);
  if (!problems.some(isError)) checkPolicyFilesFound(paths, discovery.files, cwd, allowNoPolicies);
  return { files: discovery.files.length, sources: read.sources, problems };
}

function isError(diagnostic: Diagnostic): boolean {
  return diagnostic.severity === 'error';
}
