/**
 * The one rule for where a scope's autojoin domains come from (design.md):
 *
 * 1. In the scope's listing, the active invitation with `invitationType: "autojoin"`.
 *    "Active" means `deactivated` is not `true`: the interface does not say which fields are
 *    always present, and an invitation in a listing of *open* invitations that does not say
 *    it is deactivated is taken at its word. An explicit `deactivated: true` is inactive.
 *    Should a listing ever hold two active ones, the most recently modified wins (then the
 *    first listed), so the choice does not depend on page order.
 * 2. Its `target` entries of type "domain" are the domains.
 * 3. When that invitation exists but carries no domain target, the domains come from call 2b
 *    (`autojoinDomains`) instead: the live service need not repeat them in the listing.
 *    If call 2b then answers 404, the two calls disagree and reading the scope fails
 *    (state.ts): taking "no domains" could hide a clear the plan should show.
 *
 * Domains come back in comparison form (src/domain.ts), the form the plan compares.
 */
import { comparableDomains } from '../domain.js';
import type { AutojoinState, Invitation } from './types.js';

function isActiveAutojoin(invitation: Invitation): boolean {
  return invitation.invitationType === 'autojoin' && invitation.deactivated !== true;
}

/** @returns the active autojoin invitation among `invitations`, or null when there is none. */
export function findActiveAutojoin(invitations: Iterable<Invitation>): Invitation | null {
  let found: Invitation | null = null;
  for (const invitation of invitations) {
    if (!isActiveAutojoin(invitation)) continue;
    if (found === null || modifiedTime(invitation) > modifiedTime(found)) found = invitation;
  }
  return found;
}

/**
 * As a number, because ISO 8601 text does not sort by time once offsets or optional
 * milliseconds appear (`02:00+02:00` is earlier than `01:00Z`). Missing or unreadable sorts first.
 */
function modifiedTime(invitation: Invitation): number {
  const time = Date.parse(invitation.modifiedAt ?? '');
  return Number.isNaN(time) ? -Infinity : time;
}

/** @returns the normalized domains of an invitation's `target` entries of type "domain" ([] when none). */
export function domainsFromTargets(invitation: Invitation): string[] {
  const values = (invitation.target ?? [])
    .filter((target) => target.type.toLowerCase() === 'domain')
    .map((target) => target.value);
  return comparableDomains(values);
}

/** @returns the normalized domains of a call 2 / 2b answer. */
export function domainsFromAutojoinState(state: AutojoinState): string[] {
  return comparableDomains(state.autojoinDomains.map((entry) => entry.domain));
}
