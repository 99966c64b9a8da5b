/** Public surface of src/service: the Invitation Service client and the live-state reader. */
export { createClient, type ClientOptions, type ServiceClient } from './client.js';
export { ServiceError, type ServiceErrorCode } from './errors.js';
export { checkBaseUrl, baseUrlString } from './base-url.js';
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry.js';
export { pageStart } from './pagination.js';
export { pathSegment } from './paths.js';
export { findActiveAutojoin, domainsFromTargets, domainsFromAutojoinState } from './autojoin-rule.js';
export { readLiveState, LiveStateError, type ReadLiveStateOptions } from './state.js';
export type * from './types.js';
export { PAGE_SIZE } from './types.js';
export { answerProblem, type AnswerShape } from './reader.js';
