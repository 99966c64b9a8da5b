/**
 * The deprecated by-group listing (call 1) will be removed. When it answers 404 or 410, the
 * rest of the run reads with its replacement, by-scope (call 1b), which answers the same
 * shape: one switch per client (one client per run), announced with one notice.
 */
import { ServiceError } from './errors.js';
import type { ListingCall } from './types.js';

/** The switch's state, shared by every listing walk of one client. */
export interface ListingSwitch {
  /** @returns the call to make for `wanted`: by-scope once by-group is known to be gone. */
  callFor(wanted: ListingCall): ListingCall;
  /**
   * @returns true when `error`, from `call`, says the by-group call is gone; the switch is
   *   then made (and announced, the first time)
   */
  switchesOn(call: ListingCall, error: unknown): boolean;
}

/** Statuses that mean "this call no longer exists". */
const GONE = new Set([404, 410]);

/** @returns a switch that announces itself through `notice`. */
export function createListingSwitch(notice: (message: string) => void): ListingSwitch {
  let byGroupGone = false;
  return {
    callFor: (wanted) => (wanted === 'by-group' && byGroupGone ? 'by-scope' : wanted),
    switchesOn(call, error) {
      if (call !== 'by-group' || !(error instanceof ServiceError) || error.code !== 'http') return false;
      if (!GONE.has(error.status ?? 0)) return false;
      if (!byGroupGone) notice(`the by-group listing answered ${error.status}: reading with by-scope (call 1b) for the rest of this run`);
      byGroupGone = true;
      return true;
    },
  };
}
