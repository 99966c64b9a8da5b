/**
 * The DNS trust check: every distinct domain looked up once (a domain that many scopes list
 * costs one set of lookups: the answers are kept for the run), a bounded number of lookups in
 * flight, the whole check under one deadline, then each finding placed at every entry that lists
 * the domain. Domains can be added while policy files are still loading, so the lookups overlap
 * the reading (`validate`); `finish` waits for them all.
 */
import type { Diagnostic, Policy } from '../policy/types.js';
import { classifyDomain, nextLookup } from './classify.js';
import { placeFindings } from './place-findings.js';
import { createLookup, type Lookup } from './resolver.js';
import type { DnsFinding, DnsSettings, DomainAnswers } from './types.js';

export interface CheckOptions {
  /** Directory the policies' files are relative to. */
  cwd: string;
  /** The resolver to use (tests); default: Node's, on `settings.servers`. */
  lookup?: Lookup;
}

/** A check under way. */
export interface DnsCheck {
  /** Starts looking up the domains of `policy` not seen yet. */
  add(policy: Policy): void;
  /**
   * Waits for every lookup, then places the findings at the entries of `policies` (those still
   * valid once loading ended; a domain only others listed is not reported).
   * @returns diagnostics at the domain entries, in no particular order
   */
  finish(policies: readonly Policy[]): Promise<Diagnostic[]>;
}

/** Starts a check: its deadline runs from now. */
export function startDnsCheck(settings: DnsSettings, options: CheckOptions): DnsCheck {
  const pool = startDomainPool(settings, options.lookup);
  return {
    add: (policy) => {
      for (const domain of policy.domains) pool.add(domain);
    },
    async finish(policies) {
      const findings = await pool.drain();
      return findings.size === 0 ? [] : placeFindings(policies, findings, options.cwd);
    },
  };
}

/** Checks every domain of `policies` over DNS; @returns diagnostics at the domain entries. */
export function checkPoliciesOverDns(policies: readonly Policy[], settings: DnsSettings, options: CheckOptions): Promise<Diagnostic[]> {
  const check = startDnsCheck(settings, options);
  for (const policy of policies) check.add(policy);
  return check.finish(policies);
}

/** Looks each domain up and judges it; @returns the findings of every domain that has any. */
export function checkDomains(domains: readonly string[], settings: DnsSettings, lookup?: Lookup): Promise<Map<string, DnsFinding[]>> {
  const pool = startDomainPool(settings, lookup);
  for (const domain of domains) pool.add(domain);
  return pool.drain();
}

/**
 * Domains queue up as they are added; at most `settings.concurrency` workers take them, one
 * lookup in flight each (a domain's lookups run one after another), so that many lookups are in
 * flight while there is work. A worker leaves only when the queue is empty, and counts itself out
 * in the same step, so a domain added later always finds a worker. Past the deadline every lookup
 * answers at once, so the remaining domains get their timeout finding quickly.
 */
function startDomainPool(settings: DnsSettings, given?: Lookup): { add(domain: string): void; drain(): Promise<Map<string, DnsFinding[]>> } {
  const lookup = given ?? createLookup(settings);
  const seen = new Set<string>();
  const queue: string[] = [];
  let next = 0;
  let active = 0;
  const findings = new Map<string, DnsFinding[]>();
  const running = new Set<Promise<void>>();
  const deadline = setTimeout(() => lookup.expire(), settings.deadlineMs);
  deadline.unref(); // a run that stops early (an error while loading) does not wait for it
  const work = async (): Promise<void> => {
    try {
      while (next < queue.length) {
        const domain = queue[next++] as string;
        const answers = await lookUpDomain(lookup, domain, settings.token !== undefined);
        const found = classifyDomain(domain, answers, { token: settings.token, strict: settings.strict });
        if (found.length > 0) findings.set(domain, found);
      }
    } finally {
      active -= 1;
    }
  };
  return {
    add(domain) {
      if (seen.has(domain)) return;
      seen.add(domain);
      queue.push(domain);
      if (active >= settings.concurrency) return;
      active += 1;
      const worker = work();
      running.add(worker);
      const done = (): boolean => running.delete(worker);
      void worker.then(done, done);
    },
    async drain() {
      try {
        while (running.size > 0) await Promise.all(running);
      } finally {
        clearTimeout(deadline);
        lookup.close();
      }
      return findings;
    },
  };
}

/** Asks what {@link nextLookup} says, one lookup at a time, until the answers decide. */
async function lookUpDomain(lookup: Lookup, domain: string, verifying: boolean): Promise<DomainAnswers> {
  const answers: DomainAnswers = {};
  for (let type = nextLookup(answers, verifying); type !== null; type = nextLookup(answers, verifying)) {
    answers[type] = await lookup.lookup(domain, type);
  }
  return answers;
}
