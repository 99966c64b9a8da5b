/** The plan file the action writes under RUNNER_TEMP, for later steps and artifacts. */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Plan } from '../plan/types.js';
import { writePlanCommand } from '../commands/plan-files.js';
import type { WorkflowContext } from './inputs.js';

/**
 * Writes the plan document under RUNNER_TEMP, named by the step (and `suffix`: a shard's part, a
 * merged plan), for later steps and artifacts; @returns it and its sha256.
 */
export async function writePlanFile(plan: Plan, context: WorkflowContext, suffix?: string): Promise<{ file: string; sha256: string }> {
  const dir = join(context.runnerTemp, 'autojoin-sync');
  await mkdir(dir, { recursive: true });
  const name = [context.stepId, suffix].filter(Boolean).join('-');
  const file = join(dir, `plan-${name.replace(/[^A-Za-z0-9_.-]/g, '_')}.json`);
  return { file, sha256: await writePlanCommand(file, plan) };
}

