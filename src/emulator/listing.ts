/**
 * What calls 1 and 1b list for a scope, and how `start` picks a page of it.
 * The autojoin invitation (active or deactivated) sits in the middle of the ordinary ones,
 * at index floor(n / 2), so readers cannot assume it comes first or last. Like the real
 * service, it carries no domain targets unless the emulator runs with `domainTargets`.
 */
import type { EmulatorScope, StartMode } from './types.js';
import { LISTING_PAGE_SIZE, type WireInvitation, type WireTarget } from './wire.js';

/** How listings are presented. */
export interface ListingOptions {
  domainTargets: boolean;
}

/** @returns every invitation of a scope in listing order (stable between calls). */
export function listedInvitations(scope: EmulatorScope, options: ListingOptions): WireInvitation[] {
  const ordinary = scope.invitations;
  if (!scope.autojoin) return ordinary;
  const at = Math.floor(ordinary.length / 2);
  return [...ordinary.slice(0, at), presentedAutojoin(scope.autojoin, options), ...ordinary.slice(at)];
}

/** @returns a scope's autojoin invitation as answers show it: domain targets only with `domainTargets`. */
export function presentedAutojoin(autojoin: NonNullable<EmulatorScope['autojoin']>, options: ListingOptions): WireInvitation {
  const invitation = autojoin.invitation;
  // Older data files stored domain targets on the invitation itself; a data file is checked only
  // shallowly on load, so take its targets only when they are a list.
  const others = (Array.isArray(invitation.target) ? invitation.target : []).filter((target) => target.type !== 'domain');
  const domains: WireTarget[] = options.domainTargets ? autojoin.domains.map((d) => ({ type: 'domain', value: d.domain })) : [];
  return { ...invitation, target: [...others, ...domains] };
}

/**
 * @returns the page for `start`: under 'offset' items [start, start+20); under 'after' start=0
 * gives [0, 20) and any other value [start+1, start+21) (the other reading of "set start to 19, 39, …").
 */
export function pageOf<T>(items: readonly T[], start: number, mode: StartMode): T[] {
  const from = mode === 'after' && start > 0 ? start + 1 : start;
  return items.slice(from, from + LISTING_PAGE_SIZE);
}

/** @returns the parsed `start` query value, or null when it is not a non-negative integer. */
export function parseStart(raw: string | null): number | null {
  if (raw === null || raw === '') return 0;
  if (!/^\d{1,9}$/u.test(raw)) return null;
  return Number(raw);
}
