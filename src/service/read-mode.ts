/**
 * The read modes (docs/service.md, "How a scope is read"): how plan, apply and import read live state,
 * and the default. `--read` (alias `--listing`), AUTOJOIN_READ (alias AUTOJOIN_LISTING) and
 * `read:` (alias `listing:`) in autojoin-sync.yaml choose one; src/run/settings.ts resolves them. It sits with the service's reader, which falls back to the default when a caller names no mode.
 */
import type { ReadMode } from './types.js';

/** Every read mode, in the order help texts name them. */
export const READ_MODES: readonly ReadMode[] = ['by-group', 'by-scope', 'autojoin'];

/** The mode when nothing sets one: call 2b alone, one request a scope (as the newest SDKs read autojoin). */
export const DEFAULT_READ_MODE: ReadMode = 'autojoin';

/** @returns true when `value` names a read mode. */
export function isReadMode(value: string): value is ReadMode {
  return (READ_MODES as readonly string[]).includes(value);
}
