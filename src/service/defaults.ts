/**
 * The client's defaults, beside the client that falls back to them when a caller (a bench, a
 * program embedding the service layer) sets none; src/run/settings.ts applies them to every run.
 */

/** Requests in flight at once when nothing sets it (--concurrency, the action's input): the AIMD window's start and ceiling. */
export const DEFAULT_CONCURRENCY = 16;

/** Deadline of each request attempt, in seconds, when nothing sets it (--request-timeout, AUTOJOIN_REQUEST_TIMEOUT). */
export const DEFAULT_REQUEST_TIMEOUT_SECONDS = 30;
