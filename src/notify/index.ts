/**
 * Notifications (design.md, "Notifications"): after a run's outcome is final, one message per
 * target URL. Pure parts: targets.ts (the project file's names and the environment's values),
 * message.ts (the event and what it carries), formats.ts (webhook, Slack, Teams, each within its
 * budget), sign.ts; the one I/O part: deliver.ts. The command layer calls {@link notify}
 * (src/commands/notify-command.ts) for both front ends.
 */
import { redactOutput } from '../output/sinks.js';
import type { NotifyTargetConfig } from '../policy/types.js';
import { deliver, type DeliveryOptions, type DeliveryResult } from './deliver.js';
import { renderBody } from './formats.js';
import { buildMessage, selectEvent, type RunFacts, type RunOutcome } from './message.js';
import { resolveTargets, type NotifyKind } from './targets.js';

export type { RunOutcome, RunFacts } from './message.js';
export type { DeliveryResult, DeliveryOptions } from './deliver.js';

export interface NotifyRequest {
  /** The project file's `notify:`. */
  entries: readonly NotifyTargetConfig[] | undefined;
  env: NodeJS.ProcessEnv;
  facts: RunFacts;
  /** apply without `--no-notify`, `plan --notify` (and the action's input `notify`). */
  enabled: boolean;
  /** One warning per target that was skipped or failed (names its `to` and variable, never a value). */
  onWarning: (text: string) => void;
  delivery?: DeliveryOptions;
}

export interface NotifyResult {
  /** Each target the event went to (or should have): `notifications` of `--format json`. */
  notifications: Pick<DeliveryResult, 'to' | 'variable' | 'delivered' | 'attempts'>[];
  /** A `required` target was not delivered (or was skipped): exit 0 becomes 1. */
  requiredFailed: { to: NotifyKind; variable: string }[];
}

/**
 * Sends the run's message to every target whose `on` lists its event, concurrently.
 * @returns what became of each target; never throws
 */
export async function notify(outcome: RunOutcome, request: NotifyRequest): Promise<NotifyResult> {
  const none: NotifyResult = { notifications: [], requiredFailed: [] };
  if (!request.enabled || !request.entries || request.entries.length === 0) return none;
  const event = selectEvent(outcome, outcome.command === 'plan');
  if (event === null) return none;
  const { targets, skipped } = resolveTargets(request.entries, request.env);
  const result: NotifyResult = { notifications: [], requiredFailed: [] };
  for (const target of skipped.filter((one) => one.on.has(event))) {
    request.onWarning(`notification to ${target.to} (${target.variable}) skipped: ${target.problem}`);
    result.notifications.push({ to: target.to, variable: target.variable, delivered: false, attempts: 0 });
    if (target.required) result.requiredFailed.push({ to: target.to, variable: target.variable });
  }
  const sending = targets.filter((target) => target.on.has(event));
  if (sending.length === 0) return result;
  const message = buildMessage(event, outcome, request.facts);
  const bodies = new Map<NotifyKind, string>();
  // Each body passes the run's redactor before it is signed and sent.
  const bodyOf = (kind: NotifyKind): string => bodies.get(kind) ?? bodies.set(kind, redactOutput(renderBody(kind, message))).get(kind) ?? '';
  const delivered = await Promise.all(sending.map((target) => deliver(target, bodyOf(target.to), request.delivery)));
  delivered.forEach((one, index) => {
    result.notifications.push({ to: one.to, variable: one.variable, delivered: one.delivered, attempts: one.attempts });
    if (one.delivered) return;
    request.onWarning(`notification to ${one.to} (${one.variable}) failed: ${one.problem ?? 'not delivered'} after ${one.attempts} attempt${one.attempts === 1 ? '' : 's'}`);
    if (sending[index]?.required) result.requiredFailed.push({ to: one.to, variable: one.variable });
  });
  return result;
}

/**
 * Before any write: a `required` target whose variable is unset or invalid stops the run.
 * @returns the problems (one line each, naming variables only); empty when the run may go on
 */
export function requiredProblems(entries: readonly NotifyTargetConfig[] | undefined, env: NodeJS.ProcessEnv, enabled: boolean): string[] {
  if (!enabled || !entries || entries.length === 0) return [];
  return resolveTargets(entries, env)
    .skipped.filter((target) => target.required)
    .map((target) => `required notification to ${target.to}: ${target.problem}`);
}
