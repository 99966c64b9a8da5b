/**
 * `autojoin-sync merge-plans PART… --out FILE`: one reviewed plan from the shard plans of one run
 * (`plan --shard K/N --out part-K.json` in each matrix job). Each part is checked as `apply --plan`
 * checks a plan; the merged plan is where the safety limits are decided. No network.
 */
import type { Command } from 'commander';
import { unsafeMarkdown } from '../../render/index.js';
import { mergePlansCommand } from '../../commands/merge-plans-command.js';
import { log } from '../../output/log.js';
import { writeStdout } from '../../output/sinks.js';
import { withJsonResult } from '../json-result.js';
import { formatOption } from '../options.js';
import { renderPlan, savePlan } from './plan.js';

interface MergeFlags {
  out: string;
  format: 'text' | 'markdown' | 'json';
}

/** Registers `autojoin-sync merge-plans`. */
export function register(program: Command): void {
  program
    .command('merge-plans')
    .description(
      'Merge the shard plans of one run (each made by `plan --shard K/N --out FILE` from one commit, ' +
        'project file, owner and target) into one plan, check the safety limits on the whole, and save it ' +
        'for `apply --plan FILE --plan-sha256 HEX --shard K/N`. Each part is checked as `apply --plan` checks ' +
        'a plan; a missing, duplicated or overlapping shard, or parts of different runs, are refused. No network.',
    )
    .argument('<parts...>', 'the shard plans, one for each shard 1..N')
    .requiredOption('--out <file>', 'write the merged plan here; prints its sha256 on stderr')
    .addOption(formatOption(['text', 'markdown', 'json']))
    .addHelpText(
      'after',
      `
Examples:
  $ autojoin-sync plan --shard 1/4 --out part-1.json    # in each of 4 matrix jobs, K = 1..4
  $ autojoin-sync merge-plans part-*.json --out plan.json --format markdown > plan.md
  $ autojoin-sync apply --plan plan.json --plan-sha256 "$PLAN_SHA256" --shard 2/4 --yes   # each apply job

Exit codes: 0 merged · 1 a part is missing, duplicated, overlapping, from another run, or not a valid plan`,
    )
    .action((parts: string[], flags: MergeFlags) => runMerge(parts, flags));
}

async function runMerge(files: string[], flags: MergeFlags): Promise<void> {
  await withJsonResult(flags.format === 'json', async () => {
    const { plan, verdict } = await mergePlansCommand({ parts: files.map((file) => ({ file, name: file })) });
    const saved = await savePlan(flags.out, plan).then(() => undefined, (error: unknown) => ({ error, plan }));
    if (saved) return saved;
    const cautions = verdict.refusals.map((refusal) => refusal.message);
    writeStdout((flags.format === 'markdown' ? unsafeMarkdown(cautions, verdict.exitCode) : '') + renderPlan(plan, flags.format));
    for (const caution of cautions) log().warn(`apply would refuse this plan: ${caution}`);
    return undefined;
  });
}
