/**
 * The fallbacks between the ways of reading live state (docs/service.md, "How a scope is read"), one
 * switch per client (one client per run), each announced with one notice:
 *
 * - Call 2b (`GET …/by-scope/{scopeType}/{scope}/autojoin`) answers 404 or 405 before it has
 *   answered for any scope: this service does not offer it. `--read autojoin` then reads with
 *   the by-scope listing (call 1b), and every listing mode takes the domains from the listing's
 *   domain targets, unchecked against 2b (state.ts). Once 2b has answered for one scope, a 404
 *   is that scope's own answer, and an error.
 * - A listing call answers 404 or 410: it has been removed. The other listing call serves the
 *   rest of the run (by-group → by-scope, by-scope → by-group), unless that one is gone too.
 *
 * An HTML page (a web server's 404, as from a wrong base URL) is never read as a missing call.
 * No notice is given while every call answers.
 */
import { ServiceError } from './errors.js';
import type { ListingCall, ReadMode } from './types.js';

/** The switch's state, shared by every read of one client. */
export interface ReadSwitch {
  /** @returns how to read a scope when `wanted` was asked for: `autojoin` becomes by-scope once call 2b is known to be missing. */
  modeFor(wanted: ReadMode): ReadMode;
  /** @returns the listing call to make for `wanted`: the other one once `wanted` is known to be gone. */
  callFor(wanted: ListingCall): ListingCall;
  /** True once call 2b is known to be missing (answered 404 or 405 before answering any scope). */
  readonly autojoinMissing: boolean;
  /** Call 2b answered for a scope: from now on a 404 from it is an error, not a missing call. */
  autojoinAnswered(): void;
  /**
   * @param status what call 2b answered for a scope under the mode `wanted`
   * @returns true when that status says the call is missing (this answer or an earlier one); the
   *   switch is then made (and announced, the first time)
   */
  autojoinMissingOn(status: number, wanted: ReadMode): boolean;
  /**
   * @returns true when `error`, from `call`, says that listing call is gone and the other one is
   *   not known to be; the switch is then made (and announced, the first time)
   */
  switchesOn(call: ListingCall, error: unknown): boolean;
}

/** Statuses of call 2b that mean "this service does not offer it". */
const AUTOJOIN_MISSING = new Set([404, 405]);
/** Statuses of a listing call that mean "this call no longer exists". */
const LISTING_GONE = new Set([404, 410]);

const OTHER: Record<ListingCall, ListingCall> = { 'by-group': 'by-scope', 'by-scope': 'by-group' };
const CALL_NUMBER: Record<ListingCall, string> = { 'by-group': '1', 'by-scope': '1b' };

/** @returns a switch that announces each fallback through `notice`. */
export function createReadSwitch(notice: (message: string) => void): ReadSwitch {
  let autojoin: 'unknown' | 'answers' | 'missing' = 'unknown';
  const gone = new Set<ListingCall>();
  const callFor = (wanted: ListingCall): ListingCall => (gone.has(wanted) && !gone.has(OTHER[wanted]) ? OTHER[wanted] : wanted);
  return {
    modeFor: (wanted) => (wanted === 'autojoin' ? (autojoin === 'missing' ? callFor('by-scope') : 'autojoin') : callFor(wanted)),
    callFor,
    get autojoinMissing() {
      return autojoin === 'missing';
    },
    autojoinAnswered() {
      if (autojoin === 'unknown') autojoin = 'answers';
    },
    autojoinMissingOn(status, wanted) {
      if (autojoin === 'missing') return true;
      if (autojoin === 'answers' || !AUTOJOIN_MISSING.has(status)) return false;
      autojoin = 'missing';
      notice(autojoinMissingNotice(status, wanted));
      return true;
    },
    switchesOn(call, error) {
      if (!isServiceAnswer(error) || !LISTING_GONE.has(error.status ?? 0)) return false;
      if (gone.has(OTHER[call])) return false;
      if (!gone.has(call)) notice(`the ${call} listing answered ${error.status}: reading with ${OTHER[call]} (call ${CALL_NUMBER[OTHER[call]]}) for the rest of this run`);
      gone.add(call);
      return true;
    },
  };
}

/**
 * @returns true for an HTTP error answer of the service itself: an HTML page (a web server's or
 *   proxy's 404, as from a wrong base URL) says nothing about which calls the service offers
 */
export function isServiceAnswer(error: unknown): error is ServiceError {
  return error instanceof ServiceError && error.code === 'http' && !error.html;
}

function autojoinMissingNotice(status: number, wanted: ReadMode): string {
  const missing = `call 2b (GET …/by-scope/{scopeType}/{scope}/autojoin) answered ${status}`;
  const read = wanted === 'autojoin' ? 'reading with the by-scope listing (call 1b) for the rest of this run' : 'the listings are not checked against it for the rest of this run';
  return `${missing}: ${read}, each scope's domains taken from its listing's domain targets`;
}
