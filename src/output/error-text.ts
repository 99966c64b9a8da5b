/** The one way a run's failure becomes text for stderr or the runner: no secret, nothing a terminal would act on. */
import { escapeControls } from '../escape.js';
import { redactOutput } from './sinks.js';

/**
 * @param error what ended the run
 * @returns its message with every form of a secret of the run (src/output/sinks.ts) replaced and non-printable characters escaped
 */
export function errorText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return escapeControls(redactOutput(message), true);
}
