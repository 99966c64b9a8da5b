/**
 * The emulator's concurrency limit (`maxInFlight`): a request that arrives while that many are
 * still being answered gets an immediate 429 without Retry-After, as a load balancer's
 * connection limit answers. Clients must find the limit on their own (see service/pacing.ts).
 */
import type { ServerResponse } from 'node:http';

/**
 * @param limit most requests in flight; undefined for no limit
 * @returns `admit(response)`: true when the request may proceed (it counts until its response
 *   closes), false when it is over the limit and must be answered 429
 */
export function createInFlightLimit(limit: number | undefined): (response: ServerResponse) => boolean {
  let inFlight = 0;
  return (response) => {
    if (limit === undefined) return true;
    if (inFlight >= limit) return false;
    inFlight += 1;
    response.once('close', () => (inFlight -= 1));
    return true;
  };
}
