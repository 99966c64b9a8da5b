export { checkDomains, checkPoliciesOverDns, type CheckOptions } from './check.js';
export { classifyDomain, nextLookup } from './classify.js';
export { createLookup, type Lookup } from './resolver.js';
export { DnsServerError, resolveServerAddress } from './servers.js';
export { VERIFICATION_PREFIX, type Answer, type DnsFinding, type DnsSettings, type DomainAnswers, type RecordType } from './types.js';
