/**
 * `--format json` on every outcome: when a command that prints a JSON document fails, stdout
 * still gets one document, schemas/result.schema.json (diagnostics, refusals, the plan, the
 * error), and the error goes on to stderr and the exit code as usual.
 */
import type { Plan } from '../plan/types.js';
import type { Diagnostic } from '../policy/types.js';
import { renderResultJson } from '../render/index.js';
import { errorText } from '../output/error-text.js';
import { ExitCode, RunError, toRunError } from '../output/exit-codes.js';
import { writeStdout } from '../output/sinks.js';
import { refusalsOfError } from '../commands/verdict.js';
import { withNotifications, type NotificationEntry } from '../render/notifications-json.js';

/** Invalid policy files (exit 1): the error diagnostics, already printed on stderr. */
export class DiagnosticsError extends RunError {
  constructor(
    message: string,
    readonly diagnostics: readonly Diagnostic[],
  ) {
    super(message);
    this.name = 'DiagnosticsError';
  }
}

/** A command that stopped, as its outcome tells it: the error, and the plan and notifications it had by then. */
export interface Stopped {
  error: unknown;
  plan?: Plan | undefined;
  /** What became of the notification targets, once delivered (the document carries them). */
  notifications?: readonly NotificationEntry[] | undefined;
}

/**
 * Runs `work`; when it throws, or returns the outcome of a command that stopped, and `json` is
 * set, prints the result document on stdout first; then the error goes on.
 * @param work returns what stopped it (the command outcome's error, plan and notifications), or nothing when it ran to its end
 */
export async function withJsonResult(json: boolean, work: () => Promise<Stopped | undefined>): Promise<void> {
  let stopped: Stopped | undefined;
  try {
    stopped = await work();
  } catch (error) {
    stopped = { error };
  }
  if (!stopped) return;
  if (json) writeStdout(resultText(stopped));
  // As withSession maps what it throws: a refusal's exit code (3, 4) and words.
  throw toRunError(stopped.error);
}

function resultText({ error, plan, notifications }: Stopped): string {
  const mapped = toRunError(error);
  const exitCode = mapped instanceof RunError ? mapped.exitCode : ExitCode.error;
  const message = errorText(mapped);
  const diagnostics = error instanceof DiagnosticsError ? error.diagnostics : undefined;
  const cause = error instanceof RunError && error.cause !== undefined ? error.cause : error;
  const text = renderResultJson({ exitCode, message, error: cause, diagnostics, plan, refusals: refusalsOfError(error) });
  return notifications && notifications.length > 0 ? withNotifications(text, notifications) : text;
}
