/**
 * The one home of the listing setting (README, "How live state is read"): how plan, apply and import
 * read live state. The `--listing` flag (or the action's `listing` input) wins over
 * AUTOJOIN_LISTING, which wins over `listing:` in autojoin-sync.yaml; the default is by-group.
 */
import type { ProjectConfig } from '../policy/types.js';
import type { ListingKind } from '../service/types.js';
import { RunError } from './exit-codes.js';

/** Every listing mode, in the order help texts name them. */
export const LISTING_KINDS: readonly ListingKind[] = ['by-group', 'by-scope', 'autojoin'];

/** The mode when nothing sets one: call 2b alone, one request a scope (as the newest SDKs read autojoin). */
export const DEFAULT_LISTING: ListingKind = 'autojoin';

/** @returns true when `value` names a listing mode. */
export function isListingKind(value: string): value is ListingKind {
  return (LISTING_KINDS as readonly string[]).includes(value);
}

/**
 * Resolves the listing mode: flag > AUTOJOIN_LISTING > project file > by-group.
 * @param flag the `--listing` flag or the action's input, already checked; undefined when not given
 * @throws RunError naming AUTOJOIN_LISTING when it holds no listing mode
 */
export function resolveListing(flag: ListingKind | undefined, project: ProjectConfig, env: NodeJS.ProcessEnv = process.env): ListingKind {
  if (flag !== undefined) return flag;
  const fromEnv = env.AUTOJOIN_LISTING?.trim();
  if (fromEnv) {
    if (!isListingKind(fromEnv)) throw new RunError(`AUTOJOIN_LISTING must be one of ${LISTING_KINDS.join(', ')}, got "${fromEnv}"`);
    return fromEnv;
  }
  return project.listing ?? DEFAULT_LISTING;
}
