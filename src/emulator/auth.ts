/** Credential checks: x-api-key for the invitation calls, Authorization: Bearer for the preset calls. */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { HttpError } from './http-io.js';

/** The two schemes of the interface. */
export type AuthScheme = 'apiKey' | 'bearer';

/** Compares in constant time (over digests, so the lengths do not leak either). */
export function secretsEqual(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * Throws a 401 unless the request carries the credential its scheme needs. Its body is `{error}`
 * alone: the SDKs read that shape too, and the emulator must answer it somewhere by default.
 */
export function checkAuth(scheme: AuthScheme, headers: IncomingHttpHeaders, secrets: { apiKey: string; accessToken: string }): void {
  if (scheme === 'apiKey') {
    const key = headers['x-api-key'];
    if (typeof key !== 'string' || !secretsEqual(key, secrets.apiKey)) {
      throw new HttpError(401, 'Missing or invalid x-api-key header', {}, 'error-only');
    }
    return;
  }
  const match = /^bearer +(.+)$/iu.exec(headers.authorization ?? '');
  if (!match || !secretsEqual(match[1] as string, secrets.accessToken)) {
    throw new HttpError(401, 'Missing or invalid bearer token in the Authorization header', { 'www-authenticate': 'Bearer' }, 'error-only');
  }
}
