/**
 * The import command over the run context (src/cli/commands/import.ts): the live state of the
 * scopes asked for, as one canonical policy file each, checked as `validate` checks a file (the
 * project file's rules included). Refuses a scope a policy file declares already (a second file
 * would be a duplicate scope) and a scope whose live text echoes a secret of the run, and names
 * the files to write, refusing a clash or (without --force) an existing file. The front end writes
 * the files (or stdout) and says what was found.
 */
import { dirname, join, relative, resolve } from 'node:path';
import { RunError } from '../output/exit-codes.js';
import { relativePosix } from '../relative-path.js';
import { createRedactor } from '../redact.js';
import { compareDiagnostics, loadPolicies, parsePolicySources } from '../policy/index.js';
import type { Diagnostic, ProjectConfig } from '../policy/types.js';
import { importScopes, type ImportedScope } from '../reconcile/import-scopes.js';
import { projectScopes, type RunContext } from '../run/settings.js';
import type { ProjectScope } from '../policy/project-scope.js';
import { entryExists, isInside } from '../files.js';
import { scopeKey, type ScopeKey, type ScopeRef } from '../scope.js';
import type { ServiceClient } from '../service/client.js';

export interface ImportCommand {
  context: RunContext;
  client: ServiceClient;
  /** The scopes to import, each once. */
  refs: readonly ScopeRef[];
  /** The directory the files go into, or `-` (stdout; a declared scope is refused there too: the documents would be second declarations). */
  out: string;
  /** `--component-id`: where the live invitation shows none; else the project file's default. */
  componentId?: string;
  /** The directory the project file's directory and the out directory are named from. */
  cwd: string;
}

export interface ImportOutcome {
  imported: ImportedScope[];
  /** Scopes without active autojoin (their files say `domains: []`). */
  inactive: ScopeKey[];
  /** The refusal when a scope's live text holds a secret of the run: then nothing may be written. */
  refusal: RunError | null;
  /** The scopes whose file passes validate, to write. */
  passing: ImportedScope[];
  /** The scopes whose file would not pass validate: not written. */
  failing: Set<string>;
  /** What validate says of the imported files, sorted. */
  diagnostics: Diagnostic[];
}

/** @throws RunError when a policy file declares one of the scopes already (nothing is read or written) */
export async function importCommand(command: ImportCommand): Promise<ImportOutcome> {
  const { context, out } = command;
  const project = importProject(context, out, command.cwd);
  await refuseDeclared(command.refs, declaredWhere(context, project, command.cwd), out, command.cwd);
  const componentId = command.componentId ?? project.defaults?.componentId;
  const imported = await importScopes(command.client, [...command.refs], { settings: context, componentId });
  const dir = out === '-' ? '' : out;
  const failing = failingScopes(imported, dir, project);
  return {
    imported,
    inactive: imported.filter((entry) => !entry.live.autojoin).map((entry) => entry.live.key),
    refusal: echoedSecretsRefusal(imported, context.secrets.map((secret) => secret.value)),
    passing: imported.filter((entry) => !failing.has(entry.policy.key)),
    failing,
    diagnostics: importDiagnostics(imported, dir, project),
  };
}

/**
 * The files the documents go to under `dir`, checked before any is written, so a refusal writes
 * nothing: two scopes on one file name (as a case-insensitive file system sees it), or, without
 * --force, a file that exists already.
 * @returns the files, in the order of `imported`
 * @throws RunError naming the file
 */
export async function importFiles(imported: readonly ImportedScope[], dir: string, force: boolean): Promise<string[]> {
  const files = imported.map((entry) => join(dir, policyFileName(entry.policy)));
  const clash = findDuplicate(files);
  if (clash) throw new RunError(`two scopes map to the same file name ${clash}; import them into different directories`);
  if (!force) {
    for (const file of files) {
      if (await entryExists(file)) throw new RunError(`${file} exists; nothing was written (pass --force to overwrite)`);
    }
  }
  return files;
}

function findDuplicate(values: readonly string[]): string | undefined {
  const seen = new Set<string>();
  for (const value of values) {
    if (seen.has(value.toLowerCase())) return value;
    seen.add(value.toLowerCase());
  }
  return undefined;
}

/** `<scopeType>-<scope>.autojoin.yaml` with anything but `[A-Za-z0-9._-]` as `_`, never hidden. */
export function policyFileName(ref: ScopeRef): string {
  const safe = `${ref.scopeType}-${ref.scope}`.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\./, '_');
  return `${safe}.autojoin.yaml`;
}

/** @returns the scopes whose imported file has an error as `validate` checks it (the project file's rules included) */
function failingScopes(imported: readonly ImportedScope[], dir: string, project: ProjectConfig): Set<string> {
  const failing = new Set<string>();
  for (const entry of imported) {
    const source = { file: join(dir, policyFileName(entry.policy)), text: entry.text };
    if (parsePolicySources([source], { project, rules: true }).diagnostics.some((d) => d.severity === 'error')) failing.add(entry.policy.key);
  }
  return failing;
}

/** The imported documents checked as `validate` would check them, sorted. */
function importDiagnostics(imported: readonly ImportedScope[], dir: string, project: ProjectConfig): Diagnostic[] {
  const sources = imported.map((entry) => ({ file: join(dir, policyFileName(entry.policy)), text: entry.text }));
  return parsePolicySources(sources, { project, rules: true }).diagnostics.sort(compareDiagnostics);
}

/**
 * A scope whose live name or metadata holds a secret of the run (echoed by the service) would
 * become a policy file holding it, or, redacted, one that sets the name to `***`: neither is
 * written, nor any other file of the run.
 */
function echoedSecretsRefusal(imported: readonly ImportedScope[], secrets: readonly string[]): RunError | null {
  const redact = createRedactor(secrets);
  const keys = imported.filter((entry) => redact(entry.text) !== entry.text).map((entry) => entry.policy.key);
  if (keys.length === 0) return null;
  return new RunError(
    `the service shows a secret of this run in the name or metadata of ${keys.slice(0, 5).join(', ')}${keys.length > 5 ? ', …' : ''}: ` +
      'import would write it into a policy file, so nothing was written. Take it out of the service, or import the other scopes',
  );
}

/**
 * The project the imported files join: the run's, or in a run of several projects (design: "Many
 * projects, one run") the one whose directory is the nearest at or above the out directory (none: no project file).
 */
function importProject(context: Pick<RunContext, 'project' | 'projects'>, out: string, cwd: string): ProjectConfig {
  if (context.projects.length <= 1) return context.project;
  const target = resolve(cwd, out === '-' ? '.' : out);
  const nearest = context.projects.filter((one) => isInside(one.dir, target)).sort((a, b) => b.dir.length - a.dir.length)[0];
  return nearest?.config ?? {};
}

/** Where a scope is declared already: under the project's directory (else cwd); in a run of several projects, every file of the run, each under its own project file. */
function declaredWhere(context: Pick<RunContext, 'projects' | 'paths' | 'base'>, project: ProjectConfig, cwd: string): DeclaredWhere {
  if (context.projects.length > 1) return { paths: context.paths, cwd: context.base, projects: projectScopes(context) };
  return { paths: [project.file === undefined ? '.' : relative(cwd, dirname(resolve(cwd, project.file))) || '.'], cwd, project };
}

interface DeclaredWhere {
  paths: readonly string[];
  /** What `paths` and the files found are named from. */
  cwd: string;
  project?: ProjectConfig;
  projects?: ProjectScope[];
}

/**
 * Refuses scopes a policy file under the project (the project file's directory, else the
 * working directory) declares already, in another file than the one import would write: a second
 * file for one scope would be a duplicate-scope error.
 */
async function refuseDeclared(refs: readonly ScopeRef[], where: DeclaredWhere, out: string, cwd: string): Promise<void> {
  const { paths, ...options } = where;
  const { policies } = await loadPolicies(paths, options);
  const declared = new Map(policies.map((policy) => [policy.key, policy.source]));
  const clashes = refs.flatMap((ref) => {
    const source = declared.get(scopeKey(ref));
    // Its own file, imported again (over it with --force): a refresh, not a second declaration.
    const ownFile = source !== undefined && out !== '-' && resolve(where.cwd, source.file) === resolve(cwd, out, policyFileName(ref));
    if (source === undefined || ownFile) return [];
    // Named from the working directory, as every file:line:col the CLI prints (src/render/shown-here.ts).
    return [`${relativePosix(cwd, resolve(where.cwd, source.file))}:${source.line}:${source.column}: ${scopeKey(ref)} is declared here already`];
  });
  if (clashes.length === 0) return;
  throw new RunError(`${clashes.join('\n')}\nimport writes files only for scopes no policy file declares: edit that file instead (nothing was written)`);
}
