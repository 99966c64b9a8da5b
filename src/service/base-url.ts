/**
 * The one check every base URL passes before any request: the API key travels in a header,
 * so plain `http://` is only acceptable when the traffic never leaves the machine.
 */
import { API_PREFIX } from './paths.js';

/** IPv4 127.0.0.0/8, IPv6 ::1 (as URL.hostname spells it) and `localhost`. */
function isLoopbackHost(hostname: string): boolean {
  if (hostname === 'localhost' || hostname === '[::1]') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/u.test(hostname);
}

/** @returns true when `url` parses and its host is loopback (the embedded or a local emulator). */
export function isLoopbackUrl(url: string): boolean {
  try {
    return isLoopbackHost(new URL(url).hostname);
  } catch {
    return false;
  }
}

/**
 * Validates the service base URL.
 * @param url e.g. `https://invitations.example.com` or `http://127.0.0.1:8080`
 * @returns the parsed URL, its pathname without a trailing slash and without a final `/api/v1`
 *   (the Python SDK's form of the base URL): every API path starts with that prefix already
 * @throws Error (one line, naming AUTOJOIN_BASE_URL) when the URL is malformed, carries
 *   credentials, a query or a fragment, or is `http://` to a host that is not loopback
 */
export function checkBaseUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw new Error(`base URL ${schemeOnly(url)} is not a valid URL (check AUTOJOIN_BASE_URL)`);
  }
  const shown = `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  if (parsed.username !== '' || parsed.password !== '') {
    throw new Error(`base URL ${shown} must not contain credentials; put the key in AUTOJOIN_API_KEY`);
  }
  if (parsed.search !== '' || parsed.hash !== '') {
    throw new Error(`base URL ${shown} must not have a query or a fragment`);
  }
  if (parsed.protocol === 'http:' && !isLoopbackHost(parsed.hostname)) {
    throw new Error(
      `base URL ${shown} uses http:// to a host that is not loopback; use https:// (http:// is only allowed for 127.0.0.1, [::1] and localhost)`,
    );
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`base URL ${shown} must start with https://`);
  }
  parsed.pathname = withoutApiPrefix(parsed.pathname.replace(/\/+$/u, '')) || '/';
  return parsed;
}

/** `/base/api/v1` → `/base`; any other path as it is. */
function withoutApiPrefix(pathname: string): string {
  return pathname.endsWith(API_PREFIX) ? pathname.slice(0, -API_PREFIX.length).replace(/\/+$/u, '') : pathname;
}

/** @returns origin + path prefix of a checked base URL, never with a trailing slash. */
export function baseUrlString(url: URL): string {
  return `${url.origin}${url.pathname === '/' ? '' : url.pathname}`;
}

/**
 * An unparsable URL is never echoed: where its credentials end cannot be known
 * (`https://user:hun/ter2@host` does not parse), so only its scheme is shown.
 */
function schemeOnly(url: string): string {
  const scheme = /^\s*([a-z][a-z0-9+.-]{0,15}:)/iu.exec(url)?.[1];
  return scheme ? `"${scheme}//…" (the rest not shown)` : '(not shown)';
}
