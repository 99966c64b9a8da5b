/** The optional project file `autojoin-sync.yaml`: defaults, base URL and safety limits. */
import { relativePosix } from '../relative-path.js';
import { compareDiagnostics, diagnosticAt } from './format.js';
import { decodePolicyBytes, fileDiagnostic, MAX_FILE_BYTES, parseYamlSource } from './parse.js';
import { schemaDiagnostics } from './schema.js';
import { placeRules } from './project-rules.js';
import { notifyDiagnostics, placeKey } from './project-notify.js';
import { scopeTextDiagnostics } from './scope-text.js';
import { identifierProblem } from '../homographs.js';
import { locate } from './locate.js';
import type { ParsedDocument } from './parse.js';
import type { Diagnostic, PolicySource, ProjectConfig } from './types.js';
import { readRegularFile } from '../files.js';

/** Name of the project file, looked up from the policy paths upward (src/run/place.ts). */
export const PROJECT_FILE = 'autojoin-sync.yaml';

export interface ProjectLoad {
  config: ProjectConfig;
  diagnostics: Diagnostic[];
}

/**
 * Reads the project file that governs a run (found from its paths by src/run/place.ts) and checks it against its schema.
 * @param absolute the project file, or undefined when the run has none
 * @param where `base`: what its name is shown relative to; `roots`: what it must lie inside (no symlink out)
 * @returns the config (`{}` without a file; only `file` when the file has errors) and diagnostics
 */
export async function loadProjectConfig(absolute: string | undefined, where: { base: string; roots: readonly string[] }): Promise<ProjectLoad> {
  if (absolute === undefined) return { config: {}, diagnostics: [] };
  const file = relativePosix(where.base, absolute);
  let bytes: Buffer;
  try {
    bytes = await readRegularFile(absolute, { maxBytes: MAX_FILE_BYTES, root: where.roots, what: 'project file' });
  } catch (error) {
    return { config: { file: absolute }, diagnostics: [fileDiagnostic(file, error)] };
  }
  const decoded = decodePolicyBytes(file, bytes);
  if (!decoded.ok) return { config: { file: absolute }, diagnostics: [decoded.diagnostic] };
  return parseProjectSource({ file, text: decoded.text }, absolute);
}

/**
 * The owner is held to the rule of scope ids: one that mixes scripts or reads as an ASCII name
 * (`іnfra`, a Cyrillic і) is an error, or two repositories would have owners that read the same.
 */
function ownerDiagnostics(parsed: ParsedDocument): Diagnostic[] {
  const owner = parsed.data.owner;
  if (typeof owner !== 'string') return [];
  const problem = identifierProblem(owner);
  return problem === null ? [] : [diagnosticAt(locate(parsed, ['owner']), 'error', 'homograph', `owner ${JSON.stringify(owner)} ${problem}`)];
}

/** Pure part of {@link loadProjectConfig}: checks a project file's text. */
export function parseProjectSource(source: PolicySource, absoluteFile: string): ProjectLoad {
  const parsed = parseYamlSource(source);
  const diagnostics = parsed.diagnostics.filter((d) => d.code !== 'empty-file');
  const [first, second] = parsed.documents;
  if (second) {
    diagnostics.push(diagnosticAt(second.start, 'error', 'multiple-documents', 'the project file holds one YAML document only'));
  }
  if (first) {
    const notify = notifyDiagnostics(first);
    // A literal URL or secret gets its own error in place of the schema's (which would not say why).
    const schema = schemaDiagnostics('project', first, first.data).filter((d) => !notify.covered.has(placeKey(d)));
    diagnostics.push(...schema, ...notify.diagnostics, ...scopeTextDiagnostics(first, [['defaults', 'scopeType']]), ...ownerDiagnostics(first));
  }
  const placed = first && diagnostics.length === 0 && first.data.rules !== undefined ? placeRules(first) : undefined;
  if (placed) diagnostics.push(...placed.diagnostics);
  diagnostics.sort(compareDiagnostics);
  if (diagnostics.some((d) => d.severity === 'error') || !first) return { config: { file: absoluteFile }, diagnostics };
  return { config: { file: absoluteFile, ...(first.data as ProjectConfig), ...(placed ? { rules: placed.rules } : {}) }, diagnostics };
}
