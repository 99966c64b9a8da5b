/**
 * The read modes (README, "How live state is read"): how plan, apply and import read live state,
 * and the default. `--read` (alias `--listing`), AUTOJOIN_READ (alias AUTOJOIN_LISTING) and
 * `read:` (alias `listing:`) in autojoin-sync.yaml choose one; src/run/settings.ts resolves them.
 */
import type { ListingKind } from '../service/types.js';

/** Every listing mode, in the order help texts name them. */
export const LISTING_KINDS: readonly ListingKind[] = ['by-group', 'by-scope', 'autojoin'];

/** The mode when nothing sets one: call 1, as the interface text describes it. */
export const DEFAULT_LISTING: ListingKind = 'by-group';

/** @returns true when `value` names a listing mode. */
export function isListingKind(value: string): value is ListingKind {
  return (LISTING_KINDS as readonly string[]).includes(value);
}
