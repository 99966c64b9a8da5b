/**
 * The who command over the run context (src/cli/commands/who.ts): which scopes admit each domain,
 * with the file:line of its entry; with a session, whether the service lists the domain there
 * now. The front end splits its arguments into domains and paths and renders the answers.
 */
import { comparableDomains } from '../comparable-domain.js';
import { whoAdmits, type WhoAnswer } from '../governance/inventory-rows.js';
import { domainPartOf } from '../policy/domains.js';
import type { Diagnostic } from '../policy/types.js';
import type { RunContext } from '../run/settings.js';
import { parseScopeKey } from '../scope.js';
import type { ServiceClient } from '../service/client.js';
import { readLiveState } from '../service/state.js';
import { placedPolicies, type ListingContext } from './placed-policies.js';

export interface WhoCommand {
  context: ListingContext & Pick<RunContext, 'read'>;
  /** As given: `acme.com`, `user@acme.com` and `https://acme.com/x` all ask for acme.com. */
  domains: readonly string[];
  /** `--live`: opens the session the live read runs in (the front end's connection). */
  session?: (work: (client: ServiceClient) => Promise<void>) => Promise<void>;
}

export interface WhoOutcome {
  /** One answer per domain; with a session each scope says whether the service lists it (`live`). */
  answers: WhoAnswer[];
  /** The policy files' errors: when there is one, no answer. */
  errors: Diagnostic[];
}

export async function whoCommand(command: WhoCommand): Promise<WhoOutcome> {
  const { policies, errors } = await placedPolicies(command.context);
  if (errors.length > 0) return { answers: [], errors };
  const answers = whoAdmits(policies, command.domains.map(domainPartOf));
  if (command.session) await markLive(answers, command.session, command.context.read);
  return { answers, errors: [] };
}

/** Reads the scopes the answers name, once each, and marks whether the service lists the domain there. */
async function markLive(answers: WhoAnswer[], session: NonNullable<WhoCommand['session']>, mode: RunContext['read']): Promise<void> {
  const keys = [...new Set(answers.flatMap((answer) => answer.scopes.map((scope) => scope.key)))];
  if (keys.length === 0) return;
  await session(async (client) => {
    const live = await readLiveState(client, keys.map(parseScopeKey), { mode });
    for (const answer of answers) {
      for (const scope of answer.scopes) {
        const state = live.get(scope.key);
        scope.live = state?.autojoin ? comparableDomains(state.domains).includes(answer.domain) : false;
      }
    }
  });
}
