/**
 * The DNS trust check over a set of policies: every distinct domain looked up once (a domain
 * that many scopes list costs one set of lookups: the answers are kept for the run), a bounded
 * number of lookups in flight, the whole check under one deadline, then each finding placed at
 * every entry that lists the domain.
 */
import { forEachBounded } from '../concurrency.js';
import type { Diagnostic, Policy } from '../policy/types.js';
import { classifyDomain, nextLookup } from './classify.js';
import { placeFindings } from './locate.js';
import { createLookup, type Lookup } from './resolver.js';
import type { DnsFinding, DnsSettings, DomainAnswers } from './types.js';

export interface CheckOptions {
  /** Directory the policies' files are relative to. */
  cwd: string;
  /** The resolver to use (tests); default: Node's, on `settings.servers`. */
  lookup?: Lookup;
}

/**
 * Checks every domain of `policies` over DNS.
 * @returns diagnostics at the domain entries, sorted as the caller sorts them
 */
export async function checkPoliciesOverDns(policies: readonly Policy[], settings: DnsSettings, options: CheckOptions): Promise<Diagnostic[]> {
  const domains = [...new Set(policies.flatMap((policy) => policy.domains))].sort();
  const findings = await checkDomains(domains, settings, options);
  return findings.size === 0 ? [] : placeFindings(policies, findings, options.cwd);
}

/**
 * Looks each domain up (lookups one after another per domain, `settings.concurrency` domains at
 * a time, so that many lookups are in flight) and judges it.
 * @returns the findings of every domain that has any
 */
export async function checkDomains(domains: readonly string[], settings: DnsSettings, options: Omit<CheckOptions, 'cwd'> = {}): Promise<Map<string, DnsFinding[]>> {
  const lookup = options.lookup ?? createLookup(settings);
  const findings = new Map<string, DnsFinding[]>();
  // Past the deadline every lookup answers at once, so the remaining domains get their timeout finding quickly.
  const deadline = setTimeout(() => lookup.expire(), settings.deadlineMs);
  try {
    await forEachBounded(domains, settings.concurrency, async (domain) => {
      const answers = await lookUpDomain(lookup, domain, settings.token !== undefined);
      const found = classifyDomain(domain, answers, { token: settings.token, strict: settings.strict });
      if (found.length > 0) findings.set(domain, found);
    });
  } finally {
    clearTimeout(deadline);
    lookup.close();
  }
  return findings;
}

/** Asks what {@link nextLookup} says, one lookup at a time, until the answers decide. */
async function lookUpDomain(lookup: Lookup, domain: string, verifying: boolean): Promise<DomainAnswers> {
  const answers: DomainAnswers = {};
  for (let type = nextLookup(answers, verifying); type !== null; type = nextLookup(answers, verifying)) {
    answers[type] = await lookup.lookup(domain, type);
  }
  return answers;
}
