/**
 * Notifications over the run context: the command layer's first after-run step
 * (src/commands/after-run.ts) calls {@link notifyAfterRun} once the run's outcome is final and its
 * report shown, with the outcome as plain data, for both front ends; the same outcome sends the
 * same messages from the CLI and from the action. The front ends only say, in the request,
 * whether to send ({@link NotifyRequest}) and where the warnings go.
 */
import { notify, requiredProblems, type DeliveryOptions, type NotifyResult, type RunFacts, type RunOutcome } from '../notify/index.js';
import { ExitCode, RunError, toRunError, type ExitCodeValue } from '../output/exit-codes.js';
import type { RunSettings } from '../run/settings.js';

export type { RunOutcome } from '../notify/index.js';

/** What a front end's request says of notifications (its flags or inputs, and where warnings go). */
export interface NotifyRequest {
  /** The service the run talked to (a base URL or `embedded`): only its host is told. */
  service: string;
  /** apply without `--no-notify`; `plan --notify`; the action's input `notify`. */
  enabled: boolean;
  onWarning: (text: string) => void;
  /** apply --shard K/N (input shard): the shard a message says it reports. */
  shard?: string;
  env?: NodeJS.ProcessEnv;
  /** Test seam: the deadline, backoff, dispatcher and clock of delivery. */
  delivery?: DeliveryOptions;
}

/** The request with the run's context. */
export interface NotifyContext extends NotifyRequest {
  context: Pick<RunSettings, 'project' | 'owner' | 'head' | 'notifyEnv'>;
}

export interface NotifyAfterRun extends NotifyResult {
  /** The run's exit code after delivery: 0 becomes 1 when a `required` target failed; 1, 2, 3 and 4 stand. */
  exitCode: number;
  /** One line naming the `required` targets not delivered; absent when none failed. */
  failure?: string;
}

/** Sends the run's notifications; never throws. */
export async function notifyAfterRun(outcome: RunOutcome, ctx: NotifyContext): Promise<NotifyAfterRun> {
  const env = ctx.env ?? ctx.context.notifyEnv;
  const result = await notify(outcome, {
    entries: ctx.context.project.notify,
    env,
    facts: runFacts(ctx, env),
    enabled: ctx.enabled,
    onWarning: ctx.onWarning,
    ...(ctx.delivery ? { delivery: ctx.delivery } : {}),
  });
  const exitCode = outcome.exitCode === ExitCode.ok && result.requiredFailed.length > 0 ? ExitCode.error : outcome.exitCode;
  const failure = result.requiredFailed.length > 0 ? `a required notification was not delivered: ${result.requiredFailed.map((one) => `${one.to} (${one.variable})`).join(', ')}` : undefined;
  return { ...result, exitCode, ...(failure ? { failure } : {}) };
}

/**
 * Before any write (and before a plan --notify reads): a `required` target whose variable is unset
 * or invalid is exit 1.
 * @throws RunError naming the variables, never their values
 */
export function refuseUnsendableRequired(ctx: Pick<NotifyContext, 'context' | 'enabled' | 'env'>): void {
  const problems = requiredProblems(ctx.context.project.notify, ctx.env ?? ctx.context.notifyEnv, ctx.enabled);
  if (problems.length > 0) throw new RunError(`${problems.join('; ')}; nothing was written`);
}

/** The exit code an error ends a run with (src/output/exit-codes.ts). */
export function exitCodeOf(error: unknown): ExitCodeValue {
  const mapped = toRunError(error);
  return mapped instanceof RunError ? mapped.exitCode : ExitCode.error;
}

function runFacts(ctx: NotifyContext, env: NodeJS.ProcessEnv): RunFacts {
  const repository = env.GITHUB_REPOSITORY?.trim();
  const commit = ctx.context.head ?? env.GITHUB_SHA?.trim();
  const server = env.GITHUB_SERVER_URL?.trim();
  const runId = env.GITHUB_RUN_ID?.trim();
  const runUrl = server && repository && runId && /^https:\/\/[^/]+$/u.test(server) && /^\d+$/u.test(runId) ? `${server}/${repository}/actions/runs/${runId}` : undefined;
  return {
    owner: ctx.context.owner,
    service: hostOf(ctx.service),
    ...(repository ? { repository } : {}),
    ...(commit ? { commit } : {}),
    ...(runUrl ? { runUrl } : {}),
  };
}

/** A URL's host alone (never its path, query or credentials); `embedded` stays. */
function hostOf(service: string): string {
  try {
    return new URL(service).host;
  } catch {
    return service === 'embedded' ? 'embedded' : 'unknown';
  }
}
