/**
 * JSON Schema checks for policy and project documents. ajv works on plain data, so each
 * of its errors is mapped back to the YAML node it is about (via the instance path) and
 * reworded for a person: an unknown key lists the allowed keys and suggests the nearest,
 * a wrong type says what was expected and what was found.
 */
import type { ErrorObject, ValidateFunction } from '../schema-validator.js';
import { policy as validatePolicy, project as validateProject } from '../generated/policy-validators.js';
import policySchema from '../../schemas/autojoin.schema.json' with { type: 'json' };
import { diagnosticAt } from './format.js';
import { locate, type DataPath } from './locate.js';
import type { ParsedDocument } from './parse.js';
import type { Diagnostic } from './types.js';

// Compiled at build time (scripts/schema-validators.mjs), with every error (`allErrors`) and its
// data and schema (`verbose`): a run compiles nothing.
const validators: Record<'policy' | 'project', ValidateFunction> = { policy: validatePolicy, project: validateProject };

export type SchemaKind = keyof typeof validators;

/** Policy keys in schema order: the order `fmt` writes them in. */
export const POLICY_KEYS: readonly string[] = Object.keys(policySchema.properties);

const MISSING_KEY_HINTS: Record<string, string> = {
  scope: ' (the id of the scope in your system)',
  scopeType: ' ("default" when your system has no types, or set defaults.scopeType in autojoin-sync.yaml)',
  componentId: ' (or set defaults.componentId in autojoin-sync.yaml)',
  domains: ' (the complete list of domains; [] clears autojoin)',
};

/**
 * @param data the document's data after defaults were filled in
 * @returns one diagnostic per schema violation, at the offending key or value
 */
export function schemaDiagnostics(kind: SchemaKind, parsed: ParsedDocument, data: unknown): Diagnostic[] {
  const validate = validators[kind];
  if (validate(data)) return [];
  const diagnostics: Diagnostic[] = [];
  for (const error of withoutAlternatives(validate.errors ?? [])) {
    const diagnostic = describe(error, parsed);
    if (diagnostic) diagnostics.push(diagnostic);
  }
  return diagnostics;
}

/**
 * A value with alternative forms (`prune: false`, or `prune: {keep: …}`) is reported once: where
 * it fails inside one form, there alone; where it fits no form, as the first form's type mismatch.
 * The `anyOf` itself and each other form's mismatch would only repeat that the value is wrong.
 */
function withoutAlternatives(errors: readonly ErrorObject[]): ErrorObject[] {
  const alternatives = new Set(errors.filter((error) => error.keyword === 'anyOf').map((error) => error.instancePath));
  const inside = (at: string): boolean => errors.some((error) => error.keyword !== 'anyOf' && error.keyword !== 'type' && (error.instancePath === at || error.instancePath.startsWith(`${at}/`)));
  return errors.filter((error) => {
    const at = error.instancePath;
    if (!alternatives.has(at) || (error.keyword !== 'anyOf' && error.keyword !== 'type')) return true;
    return error.keyword === 'type' && !inside(at) && errors.find((other) => other.keyword === 'type' && other.instancePath === at) === error;
  });
}

/**
 * The schema check of {@link schemaDiagnostics} for data that has no YAML behind it (a saved
 * plan's scope fields), so a plan can hold only what a policy file could.
 * @returns the first problem as one line, e.g. `scope: must not contain control characters`, or null
 */
export function schemaProblem(kind: SchemaKind, data: unknown): string | null {
  const validate = validators[kind];
  if (validate(data)) return null;
  const error = validate.errors?.find((e) => e.keyword !== 'uniqueItems');
  if (!error) return null;
  const path = pointerToPath(error.instancePath);
  if (error.keyword === 'additionalProperties') return `unknown key "${String(error.params.additionalProperty)}"`;
  if (error.keyword === 'required') return `missing required key "${String(error.params.missingProperty)}"`;
  if (error.keyword === 'type') return `${labelOf(path)}: expected ${expectedOf(path, String(error.params.type))}`;
  if (error.keyword === 'propertyNames' || error.propertyName !== undefined) return `${labelOf(path)}: the key "${String(error.params.propertyName ?? error.propertyName)}" is reserved (autojoin-sync.)`;
  return `${labelOf(path)}: ${invalidValue(path, error)}`;
}

function describe(error: ErrorObject, parsed: ParsedDocument): Diagnostic | null {
  const path = pointerToPath(error.instancePath);
  switch (error.keyword) {
    case 'additionalProperties':
      return unknownKey(parsed, path, String(error.params.additionalProperty), error.parentSchema);
    case 'required':
      return missingKey(parsed, path, String(error.params.missingProperty));
    case 'type':
      return wrongType(parsed, path, error);
    case 'uniqueItems':
      return null; // the domain checks report duplicates, with both positions
    case 'if':
      return null; // a domain entry's own error (then: a grant, else: a string) says what is wrong
    case 'propertyNames':
      return reservedKey(parsed, path, String(error.params.propertyName));
    default:
      // The failed `not` under propertyNames: reported once, by the propertyNames error.
      if (error.propertyName !== undefined) return null;
      return diagnosticAt(locate(parsed, path), 'error', 'invalid-value', `${labelOf(path)}: ${invalidValue(path, error)}`);
  }
}

function pointerToPath(pointer: string): DataPath {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

/** @returns e.g. `domains[2]`, `safety.maxRemovals`. */
function labelOf(path: DataPath): string {
  return path.reduce<string>((label, part) => (typeof part === 'number' ? `${label}[${part}]` : label ? `${label}.${part}` : part), '');
}

function unknownKey(parsed: ParsedDocument, path: DataPath, key: string, parentSchema: unknown): Diagnostic {
  const allowed = Object.keys((parentSchema as { properties?: object } | undefined)?.properties ?? {});
  const nearest = nearestKey(key, allowed);
  const where = path.length ? ` in ${labelOf(path)}` : '';
  const suggestion = nearest ? ` (did you mean "${nearest}"?)` : '';
  const message = `unknown key "${key}"${where}${suggestion}; allowed keys: ${allowed.join(', ')}`;
  return diagnosticAt(locate(parsed, [...path, key], 'key'), 'error', 'unknown-key', message);
}

/** The only propertyNames rule: metadata keys reserved for the ownership marker. */
function reservedKey(parsed: ParsedDocument, path: DataPath, key: string): Diagnostic {
  const message = `${labelOf(path)}: the key "${key}" is reserved: keys starting with "autojoin-sync." hold the ownership marker that every write sets; rename it`;
  return diagnosticAt(locate(parsed, [...path, key], 'key'), 'error', 'reserved-key', message);
}

function missingKey(parsed: ParsedDocument, path: DataPath, key: string): Diagnostic {
  const pos = path.length ? locate(parsed, path, 'key') : parsed.start;
  const where = path.length ? ` in ${labelOf(path)}` : '';
  const hint = path.length ? '' : (MISSING_KEY_HINTS[key] ?? '');
  return diagnosticAt(pos, 'error', 'missing-key', `missing required key "${key}"${where}${hint}`);
}

function wrongType(parsed: ParsedDocument, path: DataPath, error: ErrorObject): Diagnostic {
  const expected = expectedOf(path, String(error.params.type));
  const label = labelOf(path);
  let message = `${label}: expected ${expected}, got ${describeValue(error.data)}`;
  const scalar = typeof error.data === 'number' || typeof error.data === 'boolean';
  if (error.params.type === 'string' && scalar) {
    const last = path.at(-1);
    message += typeof last === 'string' ? `; quote it: ${last}: "${String(error.data)}"` : `; quote it: "${String(error.data)}"`;
  }
  return diagnosticAt(locate(parsed, path), 'error', 'wrong-type', message);
}

/** JSON Schema types as a person would name them. */
const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  integer: 'a whole number',
  number: 'a number',
  object: 'a mapping of keys',
  array: 'a list',
  boolean: 'true or false',
};

function expectedOf(path: DataPath, type: string): string {
  const last = path.at(-1);
  if (last === 'domains') return 'a list of domains';
  if (typeof last === 'number' && path.at(-2) === 'domains') return 'a domain name (a string)';
  return TYPE_NAMES[type] ?? type;
}

/** @returns how a person would name a YAML value: `a string`, `a list`, `nothing (an empty value)`. */
function describeValue(value: unknown): string {
  if (value === null || value === undefined) return 'nothing (an empty value)';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number') return `a number (${value})`;
  // What is left of a parsed YAML value: a boolean.
  return typeof value === 'boolean' ? String(value) : `a ${typeof value}`;
}

/** @returns e.g. `must be one of "by-group", "by-scope", "autojoin", got "foo"` (the values, not only that there are some). */
function enumProblem(error: ErrorObject): string {
  const allowed = ((error.params as { allowedValues?: unknown[] }).allowedValues ?? []).map((value) => JSON.stringify(value)).join(', ');
  return error.data === undefined ? `must be one of ${allowed}` : `must be one of ${allowed}, got ${JSON.stringify(error.data)}`;
}

function invalidValue(path: DataPath, error: ErrorObject): string {
  const limit = (error.params as { limit?: number }).limit;
  switch (error.keyword) {
    case 'minLength':
      return 'must not be empty';
    case 'maxLength':
      return `must be at most ${limit} characters long`;
    case 'minimum':
      return `must be at least ${limit}, got ${String(error.data)}`;
    case 'maximum':
      return `must be at most ${limit}, got ${String(error.data)}`;
    case 'pattern':
      return patternProblem(path, error.data);
    case 'enum':
      return enumProblem(error);
    default:
      return error.message ?? 'is invalid';
  }
}

// The characters every string of a policy or project file leaves out (the schemas' patterns):
// C0 and C1 controls and the bidirectional marks, embeddings, overrides and isolates.
// eslint-disable-next-line no-control-regex
const NOT_INERT = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

function patternProblem(path: DataPath, value: unknown): string {
  const bad = typeof value === 'string' ? NOT_INERT.exec(value)?.[0] : undefined;
  if (bad !== undefined) {
    const code = `U+${(bad.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
    return `must not contain control characters or bidirectional overrides (found ${code})`;
  }
  if (path.at(-1) === 'urlEnv' || path.at(-1) === 'secretEnv') return `must be the name of an environment variable matching AUTOJOIN_NOTIFY_[A-Z0-9_]+ (no other variable can become a URL or a secret), got ${JSON.stringify(value)}`;
  if (path.at(-1) === 'baseUrl') return 'must start with https:// (http:// only for a loopback host)';
  // prune.keep entries are scope keys: the one pattern that requires a "/" rather than refusing it.
  if (path.at(-2) === 'keep') return `must be TYPE/ID (a scope type, "/", then a scope id), got ${JSON.stringify(value)}`;
  return 'must not contain "/"';
}

/**
 * @returns the allowed key nearest to a mistyped one, or undefined when none is close:
 * case, `-` and `_` are ignored, then edit distance or containment decides.
 */
function nearestKey(key: string, allowed: readonly string[]): string | undefined {
  const simple = (s: string): string => s.toLowerCase().replace(/[-_\s]/g, '');
  const target = simple(key);
  let best: { key: string; distance: number } | undefined;
  for (const candidate of allowed) {
    const other = simple(candidate);
    const distance = editDistance(target, other);
    const contained = target.length >= 4 && (other.includes(target) || target.includes(other));
    const close = distance <= Math.max(1, Math.floor(other.length / 3)) || contained;
    if (close && (!best || distance < best.distance)) best = { key: candidate, distance };
  }
  return best?.key;
}

/** Levenshtein distance. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
