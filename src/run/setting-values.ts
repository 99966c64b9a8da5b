/**
 * The values a run's service settings may take and their defaults, as the front ends' help names
 * them and their flags and inputs check them: the read modes and the default one, the client's
 * requests in flight and its deadline per attempt. The run context applies the same defaults when
 * nothing sets them (settings.ts); each is defined beside the service code that falls back to it
 * for a caller without a run (a bench, a program embedding the service layer).
 */
export { DEFAULT_READ_MODE, READ_MODES } from '../service/read-mode.js';
export { DEFAULT_CONCURRENCY, DEFAULT_REQUEST_TIMEOUT_SECONDS } from '../service/defaults.js';
