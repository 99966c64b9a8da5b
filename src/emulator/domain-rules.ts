/** Domain rules the service applies to a sync request: normal form, basic shape, no webmail. */
import webmail from 'email-providers/all.json' with { type: 'json' };

// Built on first use: every CLI start loads this module (src/cli/connect.ts imports the
// emulator), but only a sync request needs the list.
let webmailSet: ReadonlySet<string> | undefined;

/** Lower-cases and de-duplicates, keeping the first occurrence's order. */
export function normalizeDomains(domains: readonly string[]): string[] {
  return [...new Set(domains.map((domain) => domain.trim().toLowerCase()))];
}

/** @returns true when `domain` (any case) is a webmail provider's domain. */
function isWebmailDomain(domain: string): boolean {
  webmailSet ??= new Set(webmail.map((entry) => entry.toLowerCase()));
  return webmailSet.has(domain.toLowerCase());
}

/**
 * @returns the service's 400 message for the first unacceptable domain, or null when all are fine.
 * The shape check is deliberately loose (the live service's exact rule is not shown).
 */
export function domainProblem(domains: readonly string[]): string | null {
  for (const domain of domains) {
    if (!looksLikeDomain(domain)) return `Domain "${domain}" is not a valid domain name`;
    if (isWebmailDomain(domain)) return `Domain ${domain} is a webmail domain and cannot be used for autojoin`;
  }
  return null;
}

function looksLikeDomain(domain: string): boolean {
  if (/[\s@/\\:?#]/u.test(domain)) return false;
  const labels = domain.split('.');
  return labels.length >= 2 && labels.every((label) => label.length > 0 && label.length <= 63);
}
