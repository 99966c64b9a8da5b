/**
 * The show command (src/cli/commands/show.ts): a saved plan read after every check `apply --plan`
 * makes of it (pin, schema, consistency), and whether the project file here is the one the plan
 * recorded. No network, nothing written; the front end renders the plan and says the warning.
 */
import type { Plan } from '../plan/types.js';
import { readSavedPlan } from '../reconcile/saved-plan.js';
import { projectHereFor, savedProjectWarning } from '../run/context.js';
import { planVerdict } from './plan-command.js';
import type { Verdict } from './verdict.js';

export interface ShowCommand {
  /** The saved plan's path. */
  file: string;
  /** `--plan-sha256`: the file must have this sha256. */
  planSha256?: string;
  /** Where the project file "here" is looked for. */
  cwd: string;
}

export interface ShowOutcome {
  plan: Plan;
  /** Set when the project file here is not the plan's: said, not refused (show reads no live state and writes nothing). */
  projectWarning: string | null;
  /** What apply of the plan would refuse, under the limits and rules it records (src/commands/verdict.ts): shown as cautions. */
  verdict: Verdict;
}

/** @throws the refusals of readSavedPlan (a wrong pin, an invalid or inconsistent plan) */
export async function showCommand(command: ShowCommand): Promise<ShowOutcome> {
  const plan = await readSavedPlan(command.file, command.planSha256);
  const saved = plan.context?.projectFile ?? null;
  const here = await projectHereFor(saved, command.cwd).catch(() => null);
  const verdict = planVerdict(plan, { limits: {}, today: plan.createdAt.slice(0, 10), project: { rules: [] } });
  return { plan, projectWarning: savedProjectWarning(saved, here, command.file), verdict };
}
