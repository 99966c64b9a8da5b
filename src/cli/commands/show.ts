/**
 * `autojoin-sync show FILE`: render a saved plan (from `plan --out`) after the same file checks
 * `apply --plan` makes (a regular file, its pinned sha256, the schema, keys and added/removed
 * consistent with before/after, valid domains). No network, no credentials.
 */
import type { Command } from 'commander';
import { showCommand } from '../../commands/show-command.js';
import { withJsonResult } from '../json-result.js';
import { writeStdout } from '../../output/sinks.js';
import { unsafeMarkdown } from '../../render/index.js';
import { formatOption } from '../options.js';
import { renderPlan } from './plan.js';
import { log } from '../../output/log.js';

interface ShowFlags {
  format: 'text' | 'markdown' | 'json';
  planSha256?: string;
}

/** Registers `autojoin-sync show`. */
export function register(program: Command): void {
  program
    .command('show')
    .description(
      'Check a saved plan (from `plan --out FILE`) as `apply --plan` does, then render it: text, ' +
        'markdown (as the pull-request comment) or JSON (the plan document). Reads no live state: no network, no credentials.',
    )
    .argument('<file>', 'the saved plan')
    .addOption(formatOption(['text', 'markdown', 'json']))
    .option('--plan-sha256 <hex>', 'refuse the file unless its sha256 is this (what `plan --out` printed)')
    .addHelpText(
      'after',
      `
Examples:
  $ autojoin-sync plan --out plan.json && autojoin-sync show plan.json
  $ autojoin-sync show plan.json --format markdown > plan.md
  $ autojoin-sync show plan.json --plan-sha256 "$PLAN_SHA256" --format json

Exit codes: 0 shown · 1 not a valid saved plan (or another sha256)`,
    )
    .action((file: string, flags: ShowFlags) => runShow(file, flags));
}

async function runShow(file: string, flags: ShowFlags): Promise<void> {
  await withJsonResult(flags.format === 'json', async () => {
    const { plan, projectWarning, verdict } = await showCommand({ file, cwd: process.cwd(), ...(flags.planSha256 === undefined ? {} : { planSha256: flags.planSha256 }) });
    if (projectWarning !== null) log().warn(projectWarning);
    const cautions = verdict.refusals.map((refusal) => refusal.message);
    // As plan shows it: the caution in markdown, a warning on stderr in every format.
    writeStdout((flags.format === 'markdown' ? unsafeMarkdown(cautions, verdict.exitCode) : '') + renderPlan(plan, flags.format));
    for (const caution of cautions) log().warn(`apply would refuse this plan: ${caution}`);
    return undefined;
  });
}
