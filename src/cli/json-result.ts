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

/** What a command knew when it stopped: the plan it made or read. */
export interface Seen {
  plan?: Plan;
  /** What became of the notification targets, once delivered (the document carries them). */
  notifications?: NotificationEntry[];
}

/**
 * Runs `work`; when `json` is set and it throws, prints the result document on stdout first.
 * @param work told what it has made so far through `seen`
 */
export async function withJsonResult(json: boolean, work: (seen: Seen) => Promise<void>): Promise<void> {
  const seen: Seen = {};
  try {
    await work(seen);
  } catch (error) {
    if (json) writeStdout(resultText(error, seen));
    throw error;
  }
}

function resultText(error: unknown, seen: Seen): string {
  const mapped = toRunError(error);
  const exitCode = mapped instanceof RunError ? mapped.exitCode : ExitCode.error;
  const message = errorText(mapped);
  const diagnostics = error instanceof DiagnosticsError ? error.diagnostics : undefined;
  const cause = error instanceof RunError && error.cause !== undefined ? error.cause : error;
  const text = renderResultJson({ exitCode, message, error: cause, diagnostics, plan: seen.plan, refusals: refusalsOfError(error) });
  return seen.notifications ? withNotifications(text, seen.notifications) : text;
}
