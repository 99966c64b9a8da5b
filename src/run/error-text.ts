/** The one way a run's failure becomes text for stderr or the runner: no secret, nothing a terminal would act on. */
import { createRedactor } from '../redact.js';
import { escapeControls } from '../render/escape.js';

/**
 * @param error what ended the run
 * @param secrets the key and token in use (from the environment or the action's inputs)
 * @returns its message with every form of a secret replaced and non-printable characters escaped
 */
export function errorText(error: unknown, secrets: readonly (string | undefined)[]): string {
  const message = error instanceof Error ? error.message : String(error);
  return escapeControls(createRedactor(secrets)(message), true);
}
