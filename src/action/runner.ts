/**
 * The runner's channels, each through the output redactor (src/output/sinks.ts): the action's
 * modules import this in place of `@actions/core`, so a log line, an annotation, an output, the
 * job summary or the step's failure never shows a secret, even one the service echoed back.
 * The runner's own masking (`setSecret`) covers only its log, not the files behind outputs and
 * the summary, nor what is posted as a comment.
 */
import * as core from '@actions/core';
import { redactOutput } from '../output/sinks.js';

export { getInput, setSecret } from '@actions/core';

type Properties = core.AnnotationProperties;

export const info = (message: string): void => core.info(redactOutput(message));
export const notice = (message: string, properties?: Properties): void => core.notice(redactOutput(message), properties);
export const warning = (message: string, properties?: Properties): void => core.warning(redactOutput(message), properties);
export const error = (message: string, properties?: Properties): void => core.error(redactOutput(message), properties);
export const setFailed = (message: string): void => core.setFailed(redactOutput(message));
export const setOutput = (name: string, value: string): void => core.setOutput(name, redactOutput(value));

/** The job summary: `summary.addRaw(markdown, true).write()`, as with `@actions/core`. */
export const summary = {
  addRaw: (text: string, addEOL?: boolean): typeof core.summary => core.summary.addRaw(redactOutput(text), addEOL),
};
