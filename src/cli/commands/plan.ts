/**
 * `autojoin-sync plan`: what would change, in text, markdown or JSON, without writing anything.
 */
import { writeFile } from 'node:fs/promises';
import { Option, type Command } from 'commander';
import { findViolations, serializePlan, type Plan, type SafetyLimits } from '../../plan/index.js';
import { renderJson, renderMarkdown, renderText } from '../../render/index.js';
import { limitsFrom } from '../../reconcile/index.js';
import type { ListingKind } from '../../service/types.js';
import { ExitCode } from '../../run/exit-codes.js';
import { concurrencyOption, listingOption } from '../options.js';
import { planOrFail, useColor, withSession } from '../session.js';

type Format = 'text' | 'markdown' | 'json';

interface PlanFlags {
  out?: string;
  format: Format;
  detailedExitcode?: boolean;
  pruneFrom?: string;
  shard?: string;
  listing: ListingKind;
  concurrency: number;
  changedSince?: string;
}

/** Registers `autojoin-sync plan`. */
export function register(program: Command): void {
  program
    .command('plan')
    .description(
      'Load the policy files under PATH (default: the current directory), read the live state of ' +
        'their scopes from the Invitation Service and show what `apply` would change. ' +
        'The plan goes to stdout; notices and progress go to stderr.',
    )
    .argument('[path...]', 'policy files or directories to load (default: .)')
    .option('--out <file>', 'also save the plan as JSON, for `apply --plan FILE`')
    .addOption(formatOption())
    .option('--detailed-exitcode', 'exit 2 when changes are pending (0 when there are none)')
    .option('--prune-from <gitrev>', 'clear scopes whose policy file existed at GITREV and is gone now')
    .option('--changed-since <gitrev>', 'plan only the policy files changed since GITREV (fast pull-request plans; no pruning)')
    .option('--shard <K/N>', 'plan only shard K of N (a stable split of the scopes, for CI matrices)')
    .addOption(listingOption())
    .addOption(concurrencyOption())
    .addHelpText(
      'after',
      `
Examples:
  $ autojoin-sync plan policies/
  $ autojoin-sync plan --format markdown > plan.md
  $ autojoin-sync plan --out plan.json && autojoin-sync apply --plan plan.json
  $ autojoin-sync plan --detailed-exitcode --prune-from origin/main

Exit codes: 0 no changes (or changes without --detailed-exitcode) · 1 invalid policy files or
another error · 2 changes pending (with --detailed-exitcode)`,
    )
    .action((paths: string[], flags: PlanFlags) => runPlan(paths, flags));
}

async function runPlan(paths: string[], flags: PlanFlags): Promise<void> {
  const cwd = process.cwd();
  await withSession(cwd, paths, async ({ client, project }) => {
    const plan = await planOrFail({ paths, cwd, client, project, flags, label: 'reading live state' });
    process.stdout.write(renderPlan(plan, flags.format));
    if (flags.out) await writeFile(flags.out, serializePlan(plan));
    warnIfUnsafe(plan, limitsFrom(project, {}));
    if (flags.detailedExitcode && plan.changes.length > 0) process.exitCode = ExitCode.changesPending;
  }, flags.concurrency);
}

/** Renders a plan for stdout in the chosen format (each ends in a newline); colour only for a terminal without NO_COLOR. */
export function renderPlan(plan: Plan, format: Format = 'text'): string {
  if (format === 'json') return renderJson(plan);
  return format === 'markdown' ? renderMarkdown(plan) : renderText(plan, { color: useColor() });
}

/** A plan a later apply would refuse is worth knowing at plan time; it is only a notice here. */
function warnIfUnsafe(plan: Plan, limits: SafetyLimits): void {
  for (const violation of findViolations(plan.changes, limits)) {
    process.stderr.write(`warning: apply would refuse this plan: ${violation.message}\n`);
  }
}

function formatOption(): Option {
  return new Option('--format <format>', 'output format').choices(['text', 'markdown', 'json']).default('text');
}
