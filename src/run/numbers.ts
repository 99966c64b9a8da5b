/** Longest request deadline accepted, in seconds (--request-timeout, AUTOJOIN_REQUEST_TIMEOUT). */
export const MAX_REQUEST_TIMEOUT_SECONDS = 3600;

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
