/**
 * The runner's channels, each through the output redactor (src/output/sinks.ts): the action's
 * modules import this in place of `@actions/core`, so a log line, an annotation, an output, the
 * job summary or the step's failure never shows a secret, even one the service echoed back.
 * The runner's own masking (`setSecret`) covers only its log, not the files behind outputs and
 * the summary, nor what is posted as a comment. Each channel is also bounded: a message, an output
 * and the summary are redacted whole, then cut (cutText), the summary to GitHub's 1 MiB in bytes.
 */
import { statSync } from 'node:fs';
import * as core from '@actions/core';
import { cutText, cutTextBytes } from '../redact.js';

export { getInput, setSecret } from '@actions/core';

type Properties = core.AnnotationProperties;

/** Longest log line, annotation or failure message: a value that slipped past its own cut (a live value is cut at 200) still ends here. */
export const MESSAGE_MAX_CHARS = 65_536;
/** Longest output value (`summary` is one line; the others are paths, digests and numbers). */
export const OUTPUT_MAX_CHARS = 10_000;
/** GitHub drops a step summary of more than 1 MiB; what every write of one step adds up to stays under it, in bytes. */
export const SUMMARY_MAX_BYTES = 1_000_000;

/** Redacted whole, then cut (src/redact.ts). */
const shown = (message: string): string => cutText(message, MESSAGE_MAX_CHARS);

export const info = (message: string): void => core.info(shown(message));
export const notice = (message: string, properties?: Properties): void => core.notice(shown(message), properties);
export const warning = (message: string, properties?: Properties): void => core.warning(shown(message), properties);
export const error = (message: string, properties?: Properties): void => core.error(shown(message), properties);
export const setFailed = (message: string): void => core.setFailed(shown(message));
export const setOutput = (name: string, value: string): void => core.setOutput(name, cutText(value, OUTPUT_MAX_CHARS));

/**
 * The job summary: `summary.addRaw(markdown, true).write()`, as with `@actions/core`. Each text is
 * redacted whole, then cut to the room the step's summary file has left under {@link SUMMARY_MAX_BYTES}.
 */
export const summary = {
  addRaw: (text: string, addEOL?: boolean): typeof core.summary => {
    // Each write adds its text at once (writeJobSummary: addRaw, then write), so the file holds all that came before.
    const room = SUMMARY_MAX_BYTES - summaryBytes() - 1;
    // No room left: nothing is added, not even the line's end.
    return room <= 0 ? core.summary.addRaw('', false) : core.summary.addRaw(cutTextBytes(text, room), addEOL);
  },
};

/** The bytes the step's summary file holds already (0 when there is none yet). */
function summaryBytes(): number {
  const file = process.env.GITHUB_STEP_SUMMARY;
  if (!file) return 0;
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}
