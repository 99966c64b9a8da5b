export { checkDomains, checkPoliciesOverDns, startDnsCheck, type CheckOptions, type DnsCheck } from './check-domains.js';
export { classifyDomain, nextLookup } from './classify.js';
export { createLookup, type Lookup } from './resolver.js';
export { DnsServerError, resolveServerAddress } from './servers.js';
export { VERIFICATION_PREFIX, type Answer, type DnsFinding, type DnsSettings, type DomainAnswers, type RecordType } from './types.js';
