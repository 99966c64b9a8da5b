/**
 * A scope is the entity in the caller's system that autojoin applies to, named by
 * `scopeType` + `scope`. Its key `scopeType/scope` is how every module refers to it:
 * maps, plan changes, shards, fingerprints and messages. scopeType never contains '/',
 * so the key splits back unambiguously at the first '/'.
 */
import { compareStrings } from './domain.js';

export interface ScopeRef {
  scopeType: string;
  scope: string;
}

export type ScopeKey = string;

/** @returns the canonical key `scopeType/scope` of a scope. */
export function scopeKey(ref: ScopeRef): ScopeKey {
  return `${ref.scopeType}/${ref.scope}`;
}

/** Parses `TYPE/ID` (as given to `import --scope`); the id may itself contain '/'. */
export function parseScopeKey(key: string): ScopeRef {
  const slash = key.indexOf('/');
  if (slash <= 0 || slash === key.length - 1) {
    throw new Error(`"${key}" is not a scope key; expected TYPE/ID, e.g. team/acme-eng`);
  }
  return { scopeType: key.slice(0, slash), scope: key.slice(slash + 1) };
}

/** Orders scopes by key (code-unit order) so every listing, plan and fingerprint is stable. */
export function compareScopeKeys(a: ScopeKey, b: ScopeKey): number {
  return compareStrings(a, b);
}
