/**
 * `plan` and `apply` over a run of several projects (design: "Many projects, one run"), on the
 * one-verdict command layer: a run is a list of projects, each planned under its own context
 * (src/run/project-settings.ts: owner, read mode, limits, rules, drift, prune) by the one-project
 * machinery, concurrently over the one client (one pacer, one `--concurrency` for every request);
 * the run's plan is their plans joined (src/plan/joined-plan.ts). Each project's verdict is decided
 * under its own limits and rules; a refusal of any refuses the whole apply before any write,
 * naming the project; exit codes combine by severity 1 > 3 > 4 > 2 > 0.
 */
import type { ApplyReport } from '../apply/types.js';
import { NOT_ATTEMPTED, type ApplyProgress } from '../apply/apply-changes.js';
import { relativePosix } from '../relative-path.js';
import type { Diagnostic, LoadResult } from '../policy/types.js';
import type { Plan, PlanProject } from '../plan/types.js';
import { joinPlans, splitPlan } from '../plan/joined-plan.js';
import { ExitCode, type ExitCodeValue } from '../output/exit-codes.js';
import type { RunContext } from '../run/settings.js';
import type { ScopeKey } from '../scope.js';
import { duplicateScopeDiagnostics } from '../policy/lint.js';
import { placedPolicies } from './placed-policies.js';
import type { Verdict, VerdictRefusal } from './verdict.js';

/** The exit codes of several outcomes as one: by severity 1 > 3 > 4 > 2 > 0. */
export function combineExitCodes(codes: readonly ExitCodeValue[]): ExitCodeValue {
  for (const code of [ExitCode.error, ExitCode.unsafe, ExitCode.stalePlan, ExitCode.changesPending] as const) if (codes.includes(code)) return code;
  return ExitCode.ok;
}

/** Whether a context is a run of several projects: then plan and apply go through this module. */
export function manyProjects(context: Pick<RunContext, 'perProject'>): context is RunContext & { perProject: RunContext[] } {
  return context.perProject !== undefined && context.perProject.length > 1;
}

/** One project's context as its plan records it. */
export function planProjectOf(context: RunContext, plan: Plan): PlanProject {
  const project = context.projects[0];
  return {
    name: project?.name ?? '.',
    projectFile: context.projectRecord,
    root: project === undefined ? '.' : relativePosix(context.base, project.dir) || '.',
    owner: context.owner,
    limits: plan.context?.limits ?? context.limits,
    rules: plan.context?.rules ?? [...(context.project.rules ?? [])],
    takeOwnership: plan.context?.takeOwnership ?? [],
  };
}

/**
 * Plans every project of the run with `planOne` (the one-project plan command) concurrently, and
 * joins their plans. A file with an error in any project plans nothing; an error of a project's
 * plan names that project.
 * @param report takes the errors of a scope two projects declare, as each project's `onDiagnostics` took its own
 */
export async function planProjects(
  contexts: readonly RunContext[],
  planOne: (context: RunContext) => Promise<{ plan: Plan | null; load: LoadResult }>,
  report?: (diagnostics: readonly Diagnostic[]) => void | Promise<void>,
): Promise<{ plan: Plan | null; load: LoadResult }> {
  const settled = await Promise.allSettled(contexts.map((context) => planOne(context)));
  const failed = settled.findIndex((one) => one.status === 'rejected');
  if (failed >= 0) throw namedError((settled[failed] as PromiseRejectedResult).reason, contexts[failed]);
  const made = settled.map((one) => (one as PromiseFulfilledResult<{ plan: Plan | null; load: LoadResult }>).value);
  const load = joinLoads(made.map((one) => one.load));
  if (made.some((one) => one.plan === null)) return { plan: null, load };
  const twice = await declaredTwice(contexts, made.map((one) => one.plan as Plan));
  if (twice.length > 0) {
    await report?.(twice);
    return { plan: null, load: { ...load, diagnostics: [...load.diagnostics, ...twice] } };
  }
  const plan = joinPlans(made.map((one, index) => ({ project: planProjectOf(contexts[index] as RunContext, one.plan as Plan), plan: one.plan as Plan })));
  return { plan, load };
}

/** A scope two projects both plan: the error at every file:line:col that declares it (read again only then). */
async function declaredTwice(contexts: readonly RunContext[], plans: readonly Plan[]): Promise<Diagnostic[]> {
  const seen = new Map<ScopeKey, number>();
  const twice = new Set<ScopeKey>();
  plans.forEach((plan, index) => {
    for (const { key } of plan.scopes) {
      const other = seen.get(key);
      if (other !== undefined && other !== index) twice.add(key);
      seen.set(key, index);
    }
  });
  if (twice.size === 0) return [];
  const declarations = (await Promise.all(contexts.map((context) => placedPolicies(context)))).flatMap((one) => one.policies).filter((policy) => twice.has(policy.key));
  return duplicateScopeDiagnostics(declarations.map((policy) => ({ key: policy.key, source: policy.source })));
}

function joinLoads(loads: readonly LoadResult[]): LoadResult {
  return {
    policies: loads.flatMap((load) => load.policies),
    policyCount: loads.reduce((sum, load) => sum + load.policyCount, 0),
    diagnostics: loads.flatMap((load) => load.diagnostics),
    files: loads.flatMap((load) => load.files).sort(),
  };
}

/** An error of one project's plan or apply, naming the project (once). */
function namedError(error: unknown, context: RunContext | undefined): unknown {
  const name = context?.projects[0]?.name;
  if (name === undefined || !(error instanceof Error) || error.message.startsWith(`${name}: `)) return error;
  error.message = `${name}: ${error.message}`;
  return error;
}

/**
 * The run's verdict from each project's (decided by `verdictOne` under that project's limits and
 * rules): every refusal, each naming its project, and the exit code by severity.
 */
export function projectsVerdict(plan: Plan, verdictOne: (part: Plan, project: PlanProject) => Verdict): Verdict {
  const refusals: VerdictRefusal[] = [];
  const codes: ExitCodeValue[] = [];
  for (const { project, plan: part } of splitPlan(plan)) {
    const verdict = verdictOne(part, project);
    codes.push(verdict.exitCode);
    refusals.push(...verdict.refusals.map((refusal) => named(refusal, project.name)));
  }
  // The refusal apply throws first is the most severe one.
  const exitCode = combineExitCodes(codes);
  const first = refusals.findIndex((refusal) => refusal.exitCode === exitCode);
  if (first > 0) refusals.unshift(...refusals.splice(first, 1));
  return { refusals, exitCode };
}

function named(refusal: VerdictRefusal, project: string): VerdictRefusal {
  const message = refusal.message.startsWith(`${project}: `) ? refusal.message : `${project}: ${refusal.message}`;
  if (!refusal.error.message.startsWith(`${project}: `)) refusal.error.message = `${project}: ${refusal.error.message}`;
  return { ...refusal, message };
}

/** What applying one project's part takes: its part, its context and a confirmation that waits for every project's checks. */
export type ApplyOne = (part: Plan, context: RunContext, confirm: () => Promise<void>, onProgress: ApplyProgress) => Promise<ApplyReport>;

/**
 * Applies every project's part of `plan` under its own context (its owner in the markers),
 * concurrently over the one client. What only the live state tells (a stale part, a recount) is
 * checked for every project before the one confirmation; the first project refused refuses all,
 * and nothing is written.
 */
export async function applyProjects(
  plan: Plan,
  contexts: readonly RunContext[],
  options: { applyOne: ApplyOne; confirm?: () => Promise<void>; onProgress?: ApplyProgress },
): Promise<ApplyReport> {
  const parts = splitPlan(plan).map((part) => ({ ...part, context: contexts.find((context) => context.projects[0]?.name === part.project.name) }));
  const missing = parts.find((part) => part.context === undefined);
  if (missing) throw new Error(`${missing.project.name}: the plan's project is not one of this run's`);
  const barrier = allChecked(parts.length, options.confirm);
  const done = parts.map(() => 0);
  const total = parts.reduce((sum, part) => sum + part.plan.changes.length, 0);
  // The report so far of every project (a second Ctrl-C prints it): a project with no answer yet has its scopes not started.
  const soFars: (() => ApplyReport)[] = parts.map((part) => () => ({ applied: [], failed: [], skipped: part.plan.changes.map((change) => ({ key: change.key, reason: NOT_ATTEMPTED })) }));
  const soFar = (): ApplyReport => joinReports(soFars.map((one) => one()));
  const settled = await Promise.allSettled(
    parts.map(async (part, index) => {
      try {
        return await options.applyOne(part.plan, part.context as RunContext, barrier.arrive, (count, _total, partSoFar) => {
          done[index] = count;
          soFars[index] = partSoFar;
          options.onProgress?.(done.reduce((sum, one) => sum + one, 0), total, soFar);
        });
      } catch (error) {
        barrier.fail(error);
        throw namedError(error, part.context);
      }
    }),
  );
  const failed = settled.find((one) => one.status === 'rejected' && !(one.reason instanceof BarrierFailed));
  if (failed) throw (failed as PromiseRejectedResult).reason;
  return joinReports(settled.map((one) => (one as PromiseFulfilledResult<ApplyReport>).value));
}

/** The reports of several projects as one. */
function joinReports(reports: readonly ApplyReport[]): ApplyReport {
  return { applied: reports.flatMap((one) => one.applied), failed: reports.flatMap((one) => one.failed), skipped: reports.flatMap((one) => one.skipped) };
}

/** Another project failed its checks: this one writes nothing. */
class BarrierFailed extends Error {}

/** Every project arrives once its checks passed; the confirmation runs once all have; a failure before that releases all with it. */
function allChecked(count: number, confirm: (() => Promise<void>) | undefined): { arrive: () => Promise<void>; fail: (error: unknown) => void } {
  let arrived = 0;
  let settle: { resolve: () => void; reject: (error: unknown) => void } | undefined;
  const all = new Promise<void>((resolve, reject) => {
    settle = { resolve, reject };
  });
  all.catch(() => undefined);
  let confirmed: Promise<void> | undefined;
  return {
    arrive: () => {
      arrived += 1;
      if (arrived === count) settle?.resolve();
      confirmed ??= all.then(() => confirm?.());
      return confirmed;
    },
    fail: () => settle?.reject(new BarrierFailed('another project of the run was refused')),
  };
}
