/**
 * Notifications of a run of several projects (design: "Many projects, one run" and
 * "Notifications"): each project tells its own targets (its project file's `notify:`) about its
 * own part of the plan and the report. A project refused because another project was refused is
 * told so, without the other's details.
 */
import type { ApplyReport } from '../apply/types.js';
import { anotherProjectRefused, refusalCheck } from '../notify/message.js';
import { splitPlan } from '../plan/joined-plan.js';
import type { Plan } from '../plan/types.js';
import { ExitCode } from '../output/exit-codes.js';
import type { RunContext } from '../run/settings.js';
import type { ScopeKey } from '../scope.js';
import { exitCodeOf, notifyAfterRun, refuseUnsendableRequired, type NotifyAfterRun, type NotifyContext, type RunOutcome } from './notify-command.js';

/** A run's outcome with the plan the command layer holds (a plan of several projects can be split). */
export type ProjectsOutcome = Omit<RunOutcome, 'plan'> & { plan?: Plan };

/** Sends the run's notifications: a run of one project as {@link notifyAfterRun}; of several, each project to its own targets. Never throws. */
export async function notifyRun(outcome: ProjectsOutcome, ctx: NotifyContext & { context: RunContext }): Promise<NotifyAfterRun> {
  const projects = ctx.context.perProject;
  if (projects === undefined || projects.length < 2) return notifyAfterRun(outcome, ctx);
  const parts = outcome.plan?.projects === undefined ? [] : splitPlan(outcome.plan);
  const claimed = new Map<string, string>();
  const told = await Promise.all(
    projects.map((project) => {
      const name = project.projects[0]?.name ?? '';
      const part = parts.find((one) => one.project.name === name)?.plan;
      const context = { ...project, project: { ...project.project, notify: ownTargets(project, name, claimed, ctx) } };
      return notifyAfterRun(projectOutcome(outcome, name, part), { ...ctx, context });
    }),
  );
  const requiredFailed = told.flatMap((one) => one.requiredFailed);
  const failures = told.flatMap((one) => (one.failure === undefined ? [] : [one.failure]));
  const exitCode = outcome.exitCode === ExitCode.ok && requiredFailed.length > 0 ? ExitCode.error : outcome.exitCode;
  return { notifications: told.flatMap((one) => one.notifications), requiredFailed, exitCode, ...(failures.length > 0 ? { failure: failures.join('; ') } : {}) };
}

/**
 * One message per target URL per run: a URL that an earlier project of the run also names gets
 * that project's message only, and this project says so once (naming the variable, never the URL).
 */
function ownTargets(project: RunContext, name: string, claimed: Map<string, string>, ctx: Pick<NotifyContext, 'env' | 'onWarning'>): RunContext['project']['notify'] {
  const env = ctx.env ?? project.notifyEnv;
  return project.project.notify?.filter((entry) => {
    const url = (env[entry.urlEnv] ?? '').trim();
    const first = url === '' ? undefined : claimed.get(url);
    if (first === undefined) {
      if (url !== '') claimed.set(url, name);
      return true;
    }
    ctx.onWarning(`${name}: notify ${entry.to} (${entry.urlEnv}) is the URL ${first} also notifies; one message per URL per run: it gets ${first}'s`);
    return false;
  });
}

/** Before any write: a `required` target of any project of the run that cannot be sent is exit 1. */
export function refuseUnsendableInAnyProject(ctx: Pick<NotifyContext, 'enabled' | 'env'> & { context: RunContext }): void {
  for (const context of ctx.context.perProject ?? [ctx.context]) refuseUnsendableRequired({ ...ctx, context });
}

/** One project's part of the outcome: its changes, its scopes of the report, and its own refusal or the word that another project refused. */
function projectOutcome(outcome: ProjectsOutcome, name: string, part: Plan | undefined): RunOutcome {
  const { plan: _whole, report, error, ...rest } = outcome;
  const keys = new Set<ScopeKey>(part?.changes.map((change) => change.key) ?? []);
  return {
    ...rest,
    ...(part ? { plan: part } : {}),
    ...(report ? { report: reportOf(report, keys) } : {}),
    ...(error === undefined ? {} : { error: errorFor(error, name) }),
  };
}

function reportOf(report: ApplyReport, keys: ReadonlySet<ScopeKey>): ApplyReport {
  return { applied: report.applied.filter((one) => keys.has(one.key)), failed: report.failed.filter((one) => keys.has(one.key)), skipped: report.skipped.filter((one) => keys.has(one.key)) };
}

/** A refusal names the project it refused (src/commands/run-projects.ts); any other project hears only that another one was refused. */
function errorFor(error: unknown, name: string): unknown {
  if (refusalCheck(error) === null) return error;
  const message = error instanceof Error ? error.message : String(error);
  return message.startsWith(`${name}: `) ? error : anotherProjectRefused(exitCodeOf(error));
}
