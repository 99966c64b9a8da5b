/** What `makePlan` (plan.ts) is asked, in one type that its steps (desired.ts) share. */
import type { ScopeKey } from '../scope.js';
import type { ServiceClient } from '../service/client.js';
import type { Diagnostic, Policy } from '../policy/types.js';
import type { NamedSecret } from '../policy/index.js';
import type { RunSettings } from '../run/settings.js';

/** What planning needs of the run's settings (src/run/settings.ts): paths relative to `base`, which is where the run works. */
export type PlanSettings = Pick<RunSettings, 'base' | 'paths' | 'roots' | 'project' | 'owner' | 'read' | 'prune' | 'now'> &
  Partial<Pick<RunSettings, 'limits' | 'projectRecord' | 'today' | 'head' | 'baseRepository' | 'runOwners' | 'prunePlace'>>;

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
  /** The run's secrets: a policy file holding one's value is an error (policy/secret-scan.ts). */
  secrets?: readonly NamedSecret[];
  /**
   * A check of every policy to plan that needs them all and the network (the DNS check,
   * src/run/dns.ts): run once loading passed and before any live read starts; its diagnostics
   * are handed over as the loader's are, and an error among them plans nothing.
   */
  checkBeforeRead?: (policies: readonly Policy[]) => Promise<Diagnostic[]>;
  /** Scopes the run may take over from another owner (--take-ownership TYPE/ID). */
  takeOwnership?: ReadonlySet<ScopeKey>;
  /** `apply --only-expired`: plan only the removals by expiry (src/plan/only-expired.ts). */
  onlyExpired?: boolean;
}
