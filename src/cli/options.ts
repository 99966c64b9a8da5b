/** Options shared by the commands that talk to the service. */
import { InvalidArgumentError, Option } from 'commander';
import { MAX_CONCURRENCY, parseWholeNumber } from '../run/numbers.js';
import { MAX_REQUEST_TIMEOUT_SECONDS } from '../run/connect.js';

/** `--listing by-group|by-scope`: which listing call reads a scope's invitations. */
export function listingOption(): Option {
  return new Option('--listing <kind>', 'listing call: by-group (call 1, deprecated) or by-scope (call 1b)')
    .choices(['by-group', 'by-scope'])
    .default('by-group');
}

/** `--concurrency N`: requests in flight at once (1–256). */
export function concurrencyOption(): Option {
  return new Option('--concurrency <n>', 'requests in flight at once').default(16).argParser(parseConcurrency);
}

function parseConcurrency(text: string): number {
  const value = parseWholeNumber(text, 1, MAX_CONCURRENCY);
  if (value === null) throw new InvalidArgumentError(`expected a whole number from 1 to ${MAX_CONCURRENCY}.`);
  return value;
}

/** `--request-timeout SECONDS`: total deadline of each request attempt (default 30, or AUTOJOIN_REQUEST_TIMEOUT). */
export function requestTimeoutOption(): Option {
  return new Option('--request-timeout <seconds>', 'deadline of each request attempt, headers and body (default 30; env AUTOJOIN_REQUEST_TIMEOUT)').argParser(
    parseRequestTimeout,
  );
}

function parseRequestTimeout(text: string): number {
  const value = parseWholeNumber(text, 1, MAX_REQUEST_TIMEOUT_SECONDS);
  if (value === null) throw new InvalidArgumentError(`expected a whole number of seconds from 1 to ${MAX_REQUEST_TIMEOUT_SECONDS}.`);
  return value;
}
