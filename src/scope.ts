/**
 * A scope is the entity in the caller's system that autojoin applies to, named by
 * `scopeType` + `scope`. Its key `scopeType/scope` is how every module refers to it:
 * maps, plan changes, shards, fingerprints and messages. scopeType never contains '/',
 * so the key splits back unambiguously at the first '/'.
 */
import { compareStrings } from './comparable-domain.js';
import { identifierProblem } from './homographs.js';

export interface ScopeRef {
  scopeType: string;
  scope: string;
}

export type ScopeKey = string;

/**
 * @returns the canonical key `scopeType/scope` of a scope. Joined, not concatenated: V8 keeps a
 *   concatenation of 13 or more characters as a pair of its parts, and a flattened one as that
 *   pair over its copy (32 bytes more a key); a plan keeps a key for every scope.
 */
export function scopeKey(ref: ScopeRef): ScopeKey {
  return [ref.scopeType, ref.scope].join('/');
}

/**
 * Parses `TYPE/ID` as a user gives it (`import --scope`, `--scopes-from`, a flag or a project
 * file naming scopes); the id may itself contain '/'. A type or id that mixes scripts is refused
 * here as in a policy file (src/policy/scope-text.ts): `teаm/acme-eng` names no scope a reviewer can read.
 */
export function parseScopeKey(key: string): ScopeRef {
  const ref = splitScopeKey(key);
  const problem = scopeTextProblem('scopeType', ref.scopeType) ?? scopeTextProblem('scope', ref.scope);
  if (problem) throw new Error(`"${key}" is refused: its ${problem}`);
  return ref;
}

/** Splits a key this program made (`scopeKey`, a saved plan's) back into its parts, with no check beyond the shape. */
export function splitScopeKey(key: string): ScopeRef {
  const slash = key.indexOf('/');
  if (slash <= 0 || slash === key.length - 1) {
    throw new Error(`"${key}" is not a scope key; expected TYPE/ID, e.g. team/acme-eng`);
  }
  return { scopeType: key.slice(0, slash), scope: key.slice(slash + 1) };
}

/** @returns why `value`, a scope id or type, is refused (the mixed-script rule of domains), as a phrase naming it; or null. */
export function scopeTextProblem(what: 'scope' | 'scopeType', value: string): string | null {
  const problem = identifierProblem(value);
  return problem === null ? null : `${what} "${value}" (${codePoints(value)}) ${problem}`;
}

/** The text with every non-ASCII character as `\u{…}`, so the reader sees which one it is. */
function codePoints(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[^\x00-\x7f]/gu, (char) => `\\u{${(char.codePointAt(0) ?? 0).toString(16)}}`);
}

/** Orders scopes by key (code-unit order) so every listing, plan and fingerprint is stable. */
export function compareScopeKeys(a: ScopeKey, b: ScopeKey): number {
  return compareStrings(a, b);
}
