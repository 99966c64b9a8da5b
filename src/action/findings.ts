/**
 * What the action hands on besides the plan: validate's findings as a SARIF file for
 * `github/codeql-action/upload-sarif` (the `sarif-file` output), and a plan's counts for the
 * outputs and the deployment record.
 */
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { relativePosix } from '../relative-path.js';
import type { Diagnostic } from '../policy/types.js';
import type { Plan, PlanSummary } from '../plan/types.js';
import { planCounts } from '../render/describe.js';
import { renderSarif } from '../render/sarif.js';
import { renamedDiagnostics } from '../render/shown-here.js';
import { writeOutputFile } from '../output/sinks.js';
import { VERSION } from '../version.js';
import type { WorkflowContext } from './inputs.js';

/** `drift-count` (scopes changed outside this repository: drift and conflicts) and the plan's counts. */
export function planFacts(plan: Pick<Plan, 'changes' | 'drift' | 'scopes'>): { driftCount: number; counts: PlanSummary } {
  const driftCount = plan.changes.filter((change) => change.origin !== undefined).length + plan.drift.length;
  return { driftCount, counts: planCounts(plan) };
}

/** A plan step's exit code: the command layer's one rule. */
export { planExitCode } from '../commands/plan-command.js';

/**
 * Writes the findings as SARIF 2.1.0 under RUNNER_TEMP, each file named relative to the workspace
 * (the repository root code scanning resolves URIs against).
 * @returns the file's path
 */
export async function writeSarifFile(
  diagnostics: readonly Diagnostic[],
  where: { base: string },
  context: Pick<WorkflowContext, 'workspace' | 'runnerTemp' | 'stepId'>,
): Promise<string> {
  const dir = join(context.runnerTemp, 'autojoin-sync');
  await mkdir(dir, { recursive: true });
  const file = join(dir, `validate-${context.stepId.replace(/[^A-Za-z0-9_.-]/g, '_')}.sarif`);
  const named = renamedDiagnostics(diagnostics, (file) => relativePosix(context.workspace, resolve(where.base, file)));
  await writeOutputFile(file, renderSarif(named, { version: VERSION }));
  return file;
}
