/**
 * TLS failures in one line a person can act on. Node reports certificate problems with
 * OpenSSL's verify codes (https://nodejs.org/api/tls.html#x509-certificate-error-codes); the
 * usual cause behind a corporate proxy or in a private network is a CA Node does not know,
 * which NODE_EXTRA_CA_CERTS fixes without turning verification off.
 */

const UNKNOWN_CA = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
]);

const OTHER_CERT_PROBLEMS = new Set([
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_REJECTED',
  'CERT_SIGNATURE_FAILURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'HOSTNAME_MISMATCH',
]);

const CA_HINT = 'if the service (or a proxy in between) uses a private CA, set NODE_EXTRA_CA_CERTS to its PEM file';

/** @returns `TLS certificate problem: … (CODE); …` for a certificate failure, else undefined. */
export function describeTlsFailure(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return undefined;
  const message = error instanceof Error ? error.message.split('\n')[0] : code;
  if (UNKNOWN_CA.has(code)) return `TLS certificate problem: ${message} (${code}); ${CA_HINT}`;
  if (OTHER_CERT_PROBLEMS.has(code)) return `TLS certificate problem: ${message} (${code})`;
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER') return `TLS handshake failed: ${message} (${code}); is the base URL http:// rather than https://?`;
  return undefined;
}
