/** The optional project file `autojoin-sync.yaml`: defaults, base URL and safety limits. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { relativePosix } from './discover.js';
import { compareDiagnostics, diagnosticAt } from './format.js';
import { decodePolicyBytes, parseYamlSource } from './parse.js';
import { schemaDiagnostics } from './schema.js';
import type { Diagnostic, PolicySource, ProjectConfig } from './types.js';

/** Name of the project file, looked up in the working directory. */
export const PROJECT_FILE = 'autojoin-sync.yaml';

export interface ProjectLoad {
  config: ProjectConfig;
  diagnostics: Diagnostic[];
}

/**
 * Reads `<cwd>/autojoin-sync.yaml` when it exists and checks it against its schema.
 * @returns the config (`{}` without a file; only `file` when the file has errors) and diagnostics
 */
export async function loadProjectConfig(cwd: string): Promise<ProjectLoad> {
  const absolute = path.join(cwd, PROJECT_FILE);
  let bytes: Uint8Array;
  try {
    bytes = await readFile(absolute);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { config: {}, diagnostics: [] };
    throw error;
  }
  const file = relativePosix(cwd, absolute);
  const decoded = decodePolicyBytes(file, bytes);
  if (!decoded.ok) return { config: { file: absolute }, diagnostics: [decoded.diagnostic] };
  return parseProjectSource({ file, text: decoded.text }, absolute);
}

/** Pure part of {@link loadProjectConfig}: checks a project file's text. */
export function parseProjectSource(source: PolicySource, absoluteFile: string): ProjectLoad {
  const parsed = parseYamlSource(source);
  const diagnostics = parsed.diagnostics.filter((d) => d.code !== 'empty-file');
  const [first, second] = parsed.documents;
  if (second) {
    diagnostics.push(diagnosticAt(second.start, 'error', 'multiple-documents', 'the project file holds one YAML document only'));
  }
  if (first) diagnostics.push(...schemaDiagnostics('project', first, first.data));
  diagnostics.sort(compareDiagnostics);
  if (diagnostics.some((d) => d.severity === 'error') || !first) return { config: { file: absoluteFile }, diagnostics };
  return { config: { file: absoluteFile, ...(first.data as ProjectConfig) }, diagnostics };
}
