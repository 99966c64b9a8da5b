/**
 * `makePlan`, as a list of steps: load the desired policies and find the prune candidates
 * (desired.ts: one stream of the scopes to plan) → read each one's live state as it comes
 * (`readEach`, src/service/state.ts) → add it to the plan builder (src/plan/plan.ts) → the state
 * last applied where drift needs it (last-applied.ts) → the plan.
 */
import { countDiagnostics, type NamedSecret } from '../policy/index.js';
import { planBuilder } from '../plan/index.js';
import { plural } from '../text.js';
import { readEach } from '../service/state.js';
import type { ScopeKey } from '../scope.js';
import type { ServiceClient } from '../service/client.js';
import type { Plan } from '../plan/types.js';
import type { Diagnostic, LoadResult, Policy } from '../policy/types.js';
import type { RunSettings } from '../run/settings.js';
import { desiredScopes, NothingPlanned, planRequest } from './desired.js';
import { readLastApplied } from './last-applied.js';
import { refuseOwnedElsewhere } from './ownership.js';

/** What planning needs of the run's settings (src/run/settings.ts): paths relative to `base`, which is where the run works. */
export type PlanSettings = Pick<RunSettings, 'base' | 'paths' | 'roots' | 'project' | 'owner' | 'read' | 'prune'>;

export interface MakePlanOptions {
  settings: PlanSettings;
  client: ServiceClient;
  /** Git revision whose policy files name the scopes to clear when their policy is gone now. */
  pruneFrom?: string;
  /** A path set with no policy file is fine (exit 0): the "prune everything" case. */
  allowNoPolicies?: boolean;
  /** Where the plan says it was made (default: the client's base URL); `embedded` for the embedded emulator. */
  target?: string;
  /** `K/N`: plan only the scopes of shard K of N. */
  shard?: string;
  /** `--scope` / `--exclude-scope`: plan only these scopes (TYPE/ID keys); one no policy declares is an error. */
  targets?: { scope?: readonly string[]; excludeScope?: readonly string[] };
  /** `--replace`: scopes (TYPE/ID) written again even when nothing differs; one no policy declares is an error. */
  replace?: readonly string[];
  /** Progress of the live-state read. */
  onProgress?: (done: number, total: number) => void;
  /** Git revision: load only the policy files changed since it (changed.ts); cannot be combined with pruneFrom. */
  changedSince?: string;
  /** Notices for the user, e.g. scopes whose policy was deleted since `changedSince`. */
  onNotice?: (message: string) => void;
  /**
   * Takes the diagnostics as soon as they are known (the warnings of each batch of policy files
   * as it is checked, the rest once all are loaded, then the prune's), while live state is still
   * being read, so thousands of warnings are never held at once. When set, the result's
   * `load.diagnostics` keeps only the errors, which `onDiagnostics` had too.
   */
  onDiagnostics?: (diagnostics: readonly Diagnostic[]) => void | Promise<void>;
  /** The run's secrets: a policy file holding one's value is an error (policy/secrets.ts). */
  secrets?: readonly NamedSecret[];
  /**
   * A check of every policy to plan that needs them all and the network (the DNS check,
   * src/run/dns.ts): run once loading passed and before any live read starts; its diagnostics
   * are handed over as the loader's are, and an error among them plans nothing.
   */
  checkBeforeRead?: (policies: readonly Policy[]) => Promise<Diagnostic[]>;
  /** Scopes the run may take over from another owner (--take-ownership TYPE/ID). */
  takeOwnership?: ReadonlySet<ScopeKey>;
}

/**
 * Loads and validates the policies, reads the live state of their scopes and builds the plan.
 * Live state is read while the files are still loading: a scope's read starts as soon as its
 * batch of files passed and the window has room. When any file fails, the reads stop at the end
 * of its batch and nothing is planned.
 * @returns `plan` null when any diagnostic is an error (see `load.diagnostics`)
 */
export async function makePlan(options: MakePlanOptions): Promise<{ plan: Plan | null; load: LoadResult }> {
  const request = planRequest(options);
  const { owner, project } = options.settings;
  // Each scope is compared as soon as it is read, so no live state is kept (memory flat in scopes).
  const builder = planBuilder({ target: options.target ?? options.client.baseUrl, shard: request.shard, replace: request.replace, owner, takeOwnership: options.takeOwnership, drift: project.drift });
  const desired = desiredScopes(options, request);
  try {
    for await (const { item, live } of readEach(options.client, desired.scopes, (scope) => scope.policy, { mode: options.settings.read, onProgress: options.onProgress })) {
      if (item.pruned) builder.addPruned(item.policy, live);
      else builder.add(item.policy, live);
    }
  } catch (error) {
    if (error instanceof NothingPlanned) return { plan: null, load: await error.load() };
    // A file with an error wins over a failed read, however far loading had come when it failed.
    const rest = await desired.restOfLoad();
    if (rest?.failed) return { plan: null, load: rest.load };
    throw error;
  }
  const { paths, base: cwd } = options.settings;
  const lastApplied = await readLastApplied(builder.lastAppliedNeeded(), { paths, cwd, project, secrets: options.secrets });
  const plan = builder.finish(lastApplied);
  refuseOwnedElsewhere(plan, options.takeOwnership);
  return { plan, load: desired.loaded() };
}

/** @returns `N errors in the policy files; nothing was planned`: why makePlan returned no plan. */
export function nothingPlannedMessage(load: LoadResult): string {
  return `${plural(countDiagnostics(load.diagnostics).errors, 'error')} in the policy files; nothing was planned`;
}
