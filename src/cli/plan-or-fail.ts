/** Making the plan of plan, apply and adopt: diagnostics on stderr, invalid policy files end the command. */
import type { ServiceClient } from '../service/client.js';
import type { Plan } from '../plan/index.js';
import { planCommand } from '../commands/plan-command.js';
import type { RunSettings } from '../run/settings.js';
import { takeOwnershipRequest } from '../commands/request-lists.js';
import type { ScopeKey } from '../scope.js';
import { DiagnosticsError } from './json-result.js';
import { printManyDiagnostics, printNotice, printWarningSummary, progressOf } from './print.js';

/** The flags that narrow a run to some scopes: --shard, --scope, --exclude-scope, and --replace. */
export interface TargetFlags {
  shard?: string;
  scope?: string[];
  excludeScope?: string[];
  /** --replace: scopes written again even when nothing differs. */
  replace?: string[];
}

/** Makes the plan, printing diagnostics to stderr; invalid policy files end the command (exit 1). */
export async function planOrFail(options: {
  client: ServiceClient;
  settings: RunSettings;
  target: string;
  flags: TargetFlags & { pruneFrom?: string; allowNoPolicies?: boolean; changedSince?: string; takeOwnership?: string[]; onlyExpired?: boolean };
  /** Progress verb of the live-state read, e.g. `read` (`read 4,200/10,000 scopes`). */
  label: string;
  /** plan --notify: a required target that cannot be sent stops the run before the read. */
  notify?: { enabled: boolean };
}): Promise<Plan> {
  const { flags } = options;
  const progress = progressOf(options.label);
  const made = await planCommand({
    context: options.settings,
    client: options.client,
    pruneFrom: flags.pruneFrom,
    allowNoPolicies: flags.allowNoPolicies,
    target: options.target,
    shard: flags.shard,
    targets: { scope: flags.scope, excludeScope: flags.excludeScope },
    replace: flags.replace,
    onProgress: progress.update,
    changedSince: flags.changedSince,
    onNotice: printNotice,
    takeOwnership: takeOwnershipOf(flags),
    onlyExpired: flags.onlyExpired,
    ...(options.notify ? { notify: options.notify } : {}),
    // Printed as soon as the policies are loaded, before the read: never held through it.
    onDiagnostics: (diagnostics) => printManyDiagnostics(diagnostics, options.settings.base),
  }).finally(() => {
    progress.done();
    printWarningSummary();
  });
  if (!made.plan) throw new DiagnosticsError(`${made.headline} (see above, or run \`autojoin-sync validate\`)`, made.load.diagnostics);
  return made.plan;
}

/** @returns the scopes of --take-ownership (each TYPE/ID; commas separate several too). */
export function takeOwnershipOf(flags: { takeOwnership?: string[] }): Set<ScopeKey> {
  return takeOwnershipRequest(flags.takeOwnership ?? []);
}
