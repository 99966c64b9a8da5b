/** What the apply command takes: the run context, the plan, and what is the front end's own. */
import type { Plan } from '../plan/types.js';
import type { ApplyPlanOptions } from '../reconcile/apply-plan.js';
import type { RunContext } from '../run/settings.js';
import type { ScopeKey } from '../scope.js';
import type { ServiceClient } from '../service/client.js';

export interface ApplyCommand extends Pick<ApplyPlanOptions, 'onNotice' | 'confirm' | 'onProgress' | 'signal' | 'target' | 'wholePlan'> {
  context: RunContext;
  client: ServiceClient;
  plan: Plan;
  /** True for a saved plan (`--plan FILE`, input `plan-file`): its fingerprints, target, owner and history are checked again. */
  saved: boolean;
  /** Scopes the run may take over (--take-ownership / input take-ownership), parsed. */
  takeOwnership: ReadonlySet<ScopeKey>;
  /** `--allow-behind` / input `allow-behind` as given (globs, `*`). */
  allowBehind: readonly string[];
}
