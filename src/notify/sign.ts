/**
 * The webhook's signature: HMAC-SHA256 under the target's secret of `TIMESTAMP.BODY`, where
 * TIMESTAMP is the Unix time in seconds sent as `X-Autojoin-Timestamp`. A receiver recomputes it
 * over the bytes it received and refuses an old timestamp, so neither a forged body nor a replayed
 * one passes (docs/notifications.md shows the receiver's side).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const TIMESTAMP_HEADER = 'x-autojoin-timestamp';
export const SIGNATURE_HEADER = 'x-autojoin-signature';

/** @returns `sha256=HEX` of `timestamp.body` under `secret` */
export function signature(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex')}`;
}

/** The signing headers of one body. */
export function signingHeaders(secret: string, timestamp: number, body: string): Record<string, string> {
  return { [TIMESTAMP_HEADER]: String(timestamp), [SIGNATURE_HEADER]: signature(secret, timestamp, body) };
}

/**
 * A receiver's check (the tests' and the documentation's): the signature matches and the timestamp
 * is at most `toleranceSeconds` from `now`.
 */
export function verifySignature(input: { secret: string; timestamp: string | undefined; signature: string | undefined; body: string; now: number; toleranceSeconds?: number }): boolean {
  const { timestamp, body } = input;
  if (timestamp === undefined || input.signature === undefined || !/^\d+$/u.test(timestamp)) return false;
  if (Math.abs(input.now - Number(timestamp)) > (input.toleranceSeconds ?? 300)) return false;
  const expected = Buffer.from(signature(input.secret, Number(timestamp), body));
  const given = Buffer.from(input.signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
