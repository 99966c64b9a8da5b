/**
 * What a saved plan vouches for in each scope's live state (its fingerprint), apart from the plan
 * builder so that the exit codes and safety checks reach it without the planning code.
 */
import { createHash } from 'node:crypto';
import { comparableDomains } from '../comparable-domain.js';
import { canonicalJson } from './fields.js';
import type { LiveScope } from '../service/types.js';

/**
 * The fingerprint of a scope without an active autojoin invitation. It is named rather than
 * hashed: a hash of "nothing" is the same for every scope and would vouch for any scope a
 * plan is edited to name, whereas this says what apply checks, that the scope still has none.
 */
export const NO_AUTOJOIN = 'no autojoin';

/**
 * What apply relies on in one scope's live state: whether autojoin is active, which
 * invitation carries it, its domains, and the name and metadata it shows (when it shows
 * them, so a scope without them hashes as before). Status, accepts and timestamps are left
 * out: they move without changing what apply would write.
 * @param live the scope's live state; undefined counts as no autojoin.
 * @returns {@link NO_AUTOJOIN}, or 64 hex characters (sha256) for an active autojoin invitation.
 */
export function fingerprint(live: LiveScope | undefined): string {
  const autojoin = live?.autojoin ?? null;
  if (autojoin === null) return NO_AUTOJOIN;
  const state: Record<string, unknown> = {
    active: true,
    invitationId: autojoin.invitationId,
    domains: comparableDomains(live?.domains ?? []),
  };
  if (live?.scopeName !== undefined) state.scopeName = live.scopeName;
  if (live?.metadata !== undefined) state.metadata = canonicalJson(live.metadata);
  if (live?.componentId !== undefined) state.componentId = live.componentId;
  const canonical = JSON.stringify(state);
  return createHash('sha256').update(canonical, 'utf8').digest('hex');
}
