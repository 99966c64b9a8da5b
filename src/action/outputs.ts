/**
 * Every output of action.yml, set on every outcome: a later step's `if:` or expression reads an
 * output that was never written as '', but a step that writes all of them (empty where there is
 * nothing to say) tells "no plan was made" from "this step did not run". The list is checked
 * against action.yml by a test.
 */
import { basename } from 'node:path';
import * as core from './runner.js';

/** The outputs of action.yml, in its order. */
export const OUTPUT_NAMES = [
  'has-changes',
  'plan-json',
  'plan-file',
  'plan-sha256',
  'exit-code',
  'summary',
  'drift-count',
  'pull-request-url',
  'sarif-file',
  'deployment-id',
  'notify-failed',
] as const;

export type OutputName = (typeof OUTPUT_NAMES)[number];

/** What a step knows for the outputs; anything missing is set as ''. */
export interface OutputValues {
  hasChanges: boolean;
  planJson?: string;
  planSha256?: string;
  exitCode: number;
  summary: string;
  driftCount?: number;
  pullRequestUrl?: string;
  sarifFile?: string;
  deploymentId?: number;
  /** Whether a notification target was not delivered; undefined when none was sent. */
  notifyFailed?: boolean;
}

/** Sets every output of action.yml once. */
export function setAllOutputs(values: OutputValues): void {
  const text: Record<OutputName, string> = {
    'has-changes': String(values.hasChanges),
    'plan-json': values.planJson ?? '',
    // The file's name alone: what an artifact downloaded into a directory holds.
    'plan-file': values.planJson === undefined ? '' : basename(values.planJson),
    'plan-sha256': values.planSha256 ?? '',
    'exit-code': String(values.exitCode),
    summary: values.summary,
    'drift-count': values.driftCount === undefined ? '' : String(values.driftCount),
    'pull-request-url': values.pullRequestUrl ?? '',
    'sarif-file': values.sarifFile ?? '',
    'deployment-id': values.deploymentId === undefined ? '' : String(values.deploymentId),
    'notify-failed': values.notifyFailed === undefined ? '' : String(values.notifyFailed),
  };
  for (const name of OUTPUT_NAMES) core.setOutput(name, text[name]);
}
