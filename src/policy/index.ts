/** Public surface of the policy module: load + validate policy files, format them. */
export type { Diagnostic, LoadResult, Policy, PolicySource, ProjectConfig, Severity, SourcePos } from './types.js';
export { loadPolicies, parsePolicySources, readPolicySources, streamPolicies, type LoadOptions, type PolicyBatch } from './load.js';
export type { NamedSecret } from './secret-scan.js';
export { loadProjectConfig, parseProjectSource, PROJECT_FILE, type ProjectLoad } from './project.js';
export { discoverPolicyFiles, isPolicyFileName, policyPathRule, unreadablePaths } from './discover.js';
export { normalizeDomain, checkDomain, type DomainFinding } from './domains.js';
export { compareDiagnostics, countDiagnostics } from './format.js';
export { renderPolicyDocument, formatPolicyText, type FormatResult } from './canonical.js';
export { MAX_FILE_BYTES } from './parse.js';
export { checkPoliciesFound, checkPolicyFilesFound, NoPoliciesError, pathsWithoutPolicyFiles, tolerateMissingPaths } from './found.js';
