/** The optional project file `autojoin-sync.yaml`: defaults, base URL and safety limits. */
import path from 'node:path';
import { relativePosix } from './discover.js';
import { compareDiagnostics, diagnosticAt } from './format.js';
import { decodePolicyBytes, fileDiagnostic, MAX_FILE_BYTES, parseYamlSource } from './parse.js';
import { schemaDiagnostics } from './schema.js';
import { scopeTextDiagnostics } from './scope-text.js';
import type { Diagnostic, PolicySource, ProjectConfig } from './types.js';
import { isInside, pathExists, readableRoot, readRegularFile, repositoryRoot } from '../files.js';

/** Name of the project file, looked up from the policy paths upward (see {@link findProjectFile}). */
export const PROJECT_FILE = 'autojoin-sync.yaml';

export interface ProjectLoad {
  config: ProjectConfig;
  diagnostics: Diagnostic[];
}

/**
 * Reads the project file that governs `paths` (see {@link findProjectFile}) and checks it against its schema.
 * @param cwd the working directory paths are relative to
 * @param paths the policy paths of the command (default: the working directory)
 * @returns the config (`{}` without a file; only `file` when the file has errors) and diagnostics
 */
export async function loadProjectConfig(cwd: string, paths: readonly string[] = ['.']): Promise<ProjectLoad> {
  const repository = await repositoryRoot(cwd);
  const absolute = await findProjectFile(cwd, paths, repository);
  if (!absolute) return { config: {}, diagnostics: [] };
  const file = relativePosix(cwd, absolute);
  let bytes: Buffer;
  try {
    bytes = await readRegularFile(absolute, { maxBytes: MAX_FILE_BYTES, root: await readableRoot(cwd), what: 'project file' });
  } catch (error) {
    return { config: { file: absolute }, diagnostics: [fileDiagnostic(file, error)] };
  }
  const decoded = decodePolicyBytes(file, bytes);
  if (!decoded.ok) return { config: { file: absolute }, diagnostics: [decoded.diagnostic] };
  return parseProjectSource({ file, text: decoded.text }, absolute);
}

/**
 * Finds the project file the way editors find `.editorconfig`: the nearest `autojoin-sync.yaml`
 * in the policy paths' common directory or above it, never above the git repository's root;
 * failing that, the one in the working directory. So `plan examples/policies` run from a
 * repository's root uses `examples/autojoin-sync.yaml` when there is one. Outside a git
 * repository only the working directory is looked in: a file in a shared parent such as
 * /tmp must not choose the service that receives the key.
 * @param repository the repository root around cwd (looked up when not given), null outside one
 * @returns the absolute path of the file, or null when there is none
 */
export async function findProjectFile(cwd: string, paths: readonly string[], repository?: string | null): Promise<string | null> {
  const root = repository === undefined ? await repositoryRoot(cwd) : repository;
  const start = commonDirectory(cwd, paths);
  if (root !== null && isInside(root, start)) {
    for (let dir = start; ; dir = path.dirname(dir)) {
      const candidate = path.join(dir, PROJECT_FILE);
      if (await pathExists(candidate)) return candidate;
      if (dir === root || path.dirname(dir) === dir) break;
    }
  }
  const inCwd = path.join(cwd, PROJECT_FILE);
  return (await pathExists(inCwd)) ? inCwd : null;
}

function commonDirectory(cwd: string, paths: readonly string[]): string {
  const dirs = (paths.length > 0 ? paths : ['.']).map((p) => path.resolve(cwd, p));
  let common = dirs[0] ?? cwd;
  for (const dir of dirs.slice(1)) {
    while (dir !== common && !dir.startsWith(common + path.sep)) common = path.dirname(common);
  }
  return /\.ya?ml$/i.test(common) ? path.dirname(common) : common;
}

/** Pure part of {@link loadProjectConfig}: checks a project file's text. */
export function parseProjectSource(source: PolicySource, absoluteFile: string): ProjectLoad {
  const parsed = parseYamlSource(source);
  const diagnostics = parsed.diagnostics.filter((d) => d.code !== 'empty-file');
  const [first, second] = parsed.documents;
  if (second) {
    diagnostics.push(diagnosticAt(second.start, 'error', 'multiple-documents', 'the project file holds one YAML document only'));
  }
  if (first) diagnostics.push(...schemaDiagnostics('project', first, first.data), ...scopeTextDiagnostics(first, [['defaults', 'scopeType']]));
  diagnostics.sort(compareDiagnostics);
  if (diagnostics.some((d) => d.severity === 'error') || !first) return { config: { file: absoluteFile }, diagnostics };
  return { config: { file: absoluteFile, ...(first.data as ProjectConfig) }, diagnostics };
}
