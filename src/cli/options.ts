/** Options shared by the commands that talk to the service. */
import { InvalidArgumentError, Option } from 'commander';
import { LISTING_KINDS } from '../run/listing.js';
import { MAX_CONCURRENCY, parseWholeNumber } from '../run/numbers.js';

/**
 * `--listing by-group|by-scope|autojoin`: how live state is read. No commander default: when
 * left out, src/run/listing.ts falls back to AUTOJOIN_LISTING, the project file, then by-group.
 */
export function listingOption(): Option {
  return new Option(
    '--listing <kind>',
    'how live state is read: by-group (call 1, deprecated; default), by-scope (call 1b) or autojoin (call 2b only); ' +
      'else AUTOJOIN_LISTING, else listing: in autojoin-sync.yaml',
  ).choices(LISTING_KINDS);
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
