/** Options shared by the commands that talk to the service. */
import { InvalidArgumentError, Option } from 'commander';

/** `--listing by-group|by-scope`: which listing call reads a scope's invitations. */
export function listingOption(): Option {
  return new Option('--listing <kind>', 'listing call: by-group (call 1, deprecated) or by-scope (call 1b)')
    .choices(['by-group', 'by-scope'])
    .default('by-group');
}

/** Most requests in flight at once, for the CLI and the action alike. */
export const MAX_CONCURRENCY = 256;

/**
 * The one parser of whole-number flags and inputs: digits only, so `0x10`, `1e2`, `-1` and an
 * empty value are refused rather than read as something the user did not write.
 * @returns the number when it lies in [min, max], else null
 */
export function parseWholeNumber(raw: string, min: number, max: number = Number.MAX_SAFE_INTEGER): number | null {
  const text = raw.trim();
  if (!/^\d+$/u.test(text)) return null;
  const value = Number(text);
  return value >= min && value <= max ? value : null;
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
