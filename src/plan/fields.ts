/**
 * The scope's fields besides its domains that a policy manages when it states them: its name
 * (`scopeName`, shown by the service as `groups[].name`) and `metadata` (on the autojoin
 * invitation). A field the file leaves out is not managed; a field the service does not show
 * cannot be compared, so it is not either (see LiveScope). Pure.
 */
import type { Policy } from '../policy/types.js';
import type { FieldChange } from './types.js';
import type { LiveScope } from '../service/types.js';

/** @returns the managed fields whose live value differs from the file's, scopeName first. */
export function fieldChanges(policy: Policy, live: LiveScope): FieldChange[] {
  const changes: FieldChange[] = [];
  if (policy.scopeName !== undefined && live.scopeName !== undefined && live.scopeName !== policy.scopeName) {
    changes.push({ field: 'scopeName', before: live.scopeName, after: policy.scopeName });
  }
  if (policy.metadata !== undefined && live.metadata !== undefined && !sameMetadata(live.metadata, policy.metadata)) {
    changes.push({ field: 'metadata', before: live.metadata ?? null, after: policy.metadata });
  }
  return changes;
}

/** Key order never matters, and "none" on the service (null) is the same as `metadata: {}`. */
function sameMetadata(live: unknown, desired: Record<string, unknown>): boolean {
  return canonicalJson(live ?? {}) === canonicalJson(desired);
}

/** @returns JSON text with object keys sorted at every level, so equal values give equal text. */
export function canonicalJson(value: unknown): string {
  // JSON.stringify(undefined) gives undefined (lib.d.ts says string): spell it as JSON's null.
  return value === undefined ? 'null' : JSON.stringify(sortedKeys(value));
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([key, item]) => [key, sortedKeys(item)]));
}
