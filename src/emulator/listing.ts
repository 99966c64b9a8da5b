/**
 * What calls 1 and 1b list for a scope, how `start` picks a page of it, and how every answer
 * presents an invitation. The autojoin invitation (active or deactivated) sits in the middle of
 * the ordinary ones, at index floor(n / 2), so readers cannot assume it comes first or last.
 * Like the real service, it carries no domain targets unless the emulator runs with
 * `domainTargets`. Every invitation carries `deploymentId`, `widgetId` (the scope's posted
 * componentId, under the name the public reference's answers use) and `passThrough`, and each
 * `accepts[]` item a `status` (the interface text); `groups` and `accepts` are left out without
 * `groups` (the newer reference's call 2 / 2b answers), `metadata` under `postMetadata: ignore`.
 */
import type { EmulatorScope, PostMetadataMode, StartMode } from './types.js';
import { LISTING_PAGE_SIZE, type WireInvitation, type WireTarget } from './wire.js';

/** How listings and call 2 / 2b answers are presented. */
export interface ListingOptions {
  domainTargets: boolean;
  /** False: no `groups` nor `accepts` on any invitation (--no-groups). Default true. */
  groups?: boolean;
  /** `ignore`: the service keeps no metadata, so no answer carries the field. Default keep. */
  postMetadata?: PostMetadataMode;
}

/** The deployment every emulated invitation belongs to. */
export const EMULATOR_DEPLOYMENT = 'dpl_emulator';
/** The widget of an invitation whose scope never had a componentId posted (generated data). */
const DEFAULT_WIDGET = 'cmp-emulator';

/** @returns every invitation of a scope in listing order (stable between calls). */
export function listedInvitations(scope: EmulatorScope, options: ListingOptions): WireInvitation[] {
  const ordinary = scope.invitations.map((invitation) => presented(invitation, scope, options));
  if (!scope.autojoin) return ordinary;
  const at = Math.floor(ordinary.length / 2);
  return [...ordinary.slice(0, at), presentedAutojoin(scope, options), ...ordinary.slice(at)];
}

/** @returns a scope's autojoin invitation as answers show it: domain targets only with `domainTargets`. */
export function presentedAutojoin(scope: EmulatorScope, options: ListingOptions): WireInvitation {
  const autojoin = scope.autojoin as NonNullable<EmulatorScope['autojoin']>;
  const invitation = autojoin.invitation;
  // Older data files stored domain targets on the invitation itself; a data file is checked only
  // shallowly on load, so take its targets only when they are a list.
  const others = (Array.isArray(invitation.target) ? invitation.target : []).filter((target) => target.type !== 'domain');
  const domains: WireTarget[] = options.domainTargets ? autojoin.domains.map((d) => ({ type: 'domain', value: d.domain })) : [];
  return presented({ ...invitation, target: [...others, ...domains] }, scope, options);
}

/** @returns an invitation with the fields every answer carries, less those the options leave out. */
function presented(invitation: WireInvitation, scope: EmulatorScope, options: ListingOptions): WireInvitation {
  const shown: WireInvitation = {
    ...invitation,
    deploymentId: invitation.deploymentId ?? EMULATOR_DEPLOYMENT,
    widgetId: scope.componentId ?? invitation.widgetId ?? DEFAULT_WIDGET,
    passThrough: invitation.passThrough ?? passThroughOf(invitation.id),
  };
  if (Array.isArray(invitation.accepts)) shown.accepts = invitation.accepts.map((accept) => ({ status: 'accepted', ...accept }));
  if (options.groups === false) {
    delete (shown as Partial<WireInvitation>).groups;
    delete shown.accepts;
  }
  if (options.postMetadata === 'ignore') delete shown.metadata;
  return shown;
}

/** An opaque encoded string, as the reference shows `passThrough` (base64url of the invitation's id). */
function passThroughOf(id: string): string {
  return Buffer.from(JSON.stringify({ invitationId: id }), 'utf8').toString('base64url');
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
