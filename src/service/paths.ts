/**
 * API paths. Every caller-supplied value becomes exactly one path segment: '/' and '?' are
 * percent-encoded by encodeURIComponent, and the dot segments '.' and '..' (which a server
 * or proxy would resolve away, changing the path) are encoded as '%2E' and '%2E%2E'.
 */
import type { ScopeRef } from '../scope.js';
import type { ReadMode } from './types.js';

/**
 * The prefix every API path starts with. A base URL may already end in it (the Python SDK's
 * form, `https://host/api/v1`): base-url.ts then drops it from the base, so it is never sent twice.
 */
export const API_PREFIX = '/api/v1';

/** @returns `value` encoded as one path segment; throws on an empty value. */
export function pathSegment(value: string): string {
  if (value === '') throw new Error('an empty value cannot be a path segment (scope, scopeType or preset id is empty)');
  if (value === '.' || value === '..') return value.replaceAll('.', '%2E');
  return encodeURIComponent(value);
}

/** Call 1 (`by-group/{groupType}/{groupId}`) or 1b (`by-scope/{scopeType}/{scope}`), one page. */
export function listingPath(listing: ReadMode, ref: ScopeRef, start: number): string {
  return `${API_PREFIX}/invitations/${listing}/${pathSegment(ref.scopeType)}/${pathSegment(ref.scope)}?start=${start}`;
}

/** Call 2b: the autojoin state of one scope. */
export function autojoinStatePath(ref: ScopeRef): string {
  return `${API_PREFIX}/invitations/by-scope/${pathSegment(ref.scopeType)}/${pathSegment(ref.scope)}/autojoin`;
}

/** Call 2: set the complete domain list. */
export const SYNC_PATH = `${API_PREFIX}/invitations/autojoin`;

/** Call 3. */
export function formStylePresetPath(presetId: string): string {
  return `${API_PREFIX}/customer-invitation-form-style-presets/${pathSegment(presetId)}`;
}

/** Call 4. */
export const EMAIL_PRESETS_PATH = `${API_PREFIX}/customer-invitation-email-presets`;
