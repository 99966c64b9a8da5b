/**
 * `autojoin-sync apply`: make the service match the policy files (or a saved plan).
 * Order, as octoDNS's sync: plan → show it → safety limits → (saved plan) fingerprints →
 * confirmation → POST complete lists → report. Nothing is written before the confirmation.
 */
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline/promises';
import { InvalidArgumentError, type Command } from 'commander';
import { parsePlan, type Plan } from '../../plan/index.js';
import { renderApplyReportText } from '../../render/index.js';
import type { ApplyReport } from '../../apply/types.js';
import type { ListingKind } from '../../service/types.js';
import { RunError, ExitCode } from '../../run/exit-codes.js';
import { applyPlan, limitsFrom } from '../../reconcile/index.js';
import { concurrencyOption, listingOption } from '../options.js';
import { parseWholeNumber } from '../../run/numbers.js';
import { planOrFail, progressOnTty, useColor, withSession, type Session } from '../session.js';
import { renderPlan } from './plan.js';

interface ApplyFlags {
  plan?: string;
  yes?: boolean;
  maxRemovals?: number;
  allowEmpty?: boolean;
  pruneFrom?: string;
  listing: ListingKind;
  concurrency: number;
}

/** Registers `autojoin-sync apply`. */
export function register(program: Command): void {
  program
    .command('apply')
    .description(
      'Plan as `plan` does, show the plan, check the safety limits, then POST the complete domain ' +
        'list of every changed scope and verify what the service stored. On a terminal apply asks ' +
        'before writing; without one it needs --yes. With --plan FILE it applies exactly that saved ' +
        'plan, and only if the live state of every scope in it is unchanged since it was made.',
    )
    .argument('[path...]', 'policy files or directories to load (default: .)')
    .option('--plan <file>', 'apply this saved plan (from `plan --out FILE`) instead of planning anew')
    .option('-y, --yes', 'apply without asking (required when not on a terminal)')
    .option('--max-removals <n>', 'most domains this run may remove in total (beats safety.maxRemovals)', parseCount)
    .option('--allow-empty', 'allow clearing scopes whose file does not say `domains: []` (e.g. deleted files)')
    .option('--prune-from <gitrev>', 'clear scopes whose policy file existed at GITREV and is gone now')
    .addOption(listingOption())
    .addOption(concurrencyOption())
    .addHelpText(
      'after',
      `
Examples:
  $ autojoin-sync apply policies/
  $ autojoin-sync apply --yes --prune-from HEAD~1          # in CI, after a merge
  $ autojoin-sync plan --out plan.json && autojoin-sync apply --plan plan.json --yes
  $ autojoin-sync apply --yes --max-removals 50

Exit codes: 0 applied (or nothing to do) · 1 error, a scope failed, not confirmed, or interrupted ·
3 refused by a safety limit (nothing written) · 4 saved plan is stale (nothing written)`,
    )
    .action((paths: string[], flags: ApplyFlags) => runApply(paths, flags));
}

async function runApply(paths: string[], flags: ApplyFlags): Promise<void> {
  if (flags.plan && (paths.length > 0 || flags.pruneFrom)) {
    throw new RunError('--plan FILE applies a saved plan; do not also give paths or --prune-from');
  }
  const cwd = process.cwd();
  await withSession(cwd, paths, async (session) => {
    const plan = flags.plan ? await readSavedPlan(flags.plan) : await planOrFail({ ...session, paths, cwd, flags, label: 'reading live state' });
    process.stdout.write(renderPlan(plan)); // an empty plan renders as "No changes. …"
    if (plan.changes.length === 0) return;
    const report = await applyWithConfirmation(plan, flags, session);
    process.stdout.write(renderApplyReportText(report, { color: useColor() }));
    // Skipped scopes (Ctrl-C) are still pending: the run did not make the service match.
    if (report.failed.length > 0 || report.skipped.length > 0) process.exitCode = ExitCode.error;
  }, flags.concurrency);
}

async function readSavedPlan(file: string): Promise<Plan> {
  return parsePlan(await readFile(file, 'utf8'), file);
}

async function applyWithConfirmation(plan: Plan, flags: ApplyFlags, { client, project }: Session): Promise<ApplyReport> {
  const interrupt = new AbortController();
  const onSigint = (): void => {
    process.stderr.write('\ninterrupted: finishing the requests in flight, starting no more\n');
    interrupt.abort();
  };
  const progress = progressOnTty('applying');
  process.once('SIGINT', onSigint);
  try {
    return await applyPlan({
      client,
      plan,
      limits: limitsFrom(project, flags),
      concurrency: flags.concurrency,
      listing: flags.listing,
      verifyFingerprints: flags.plan !== undefined,
      confirm: () => confirm(flags.yes ?? false),
      onProgress: progress.update,
      signal: interrupt.signal,
    });
  } finally {
    progress.done();
    process.removeListener('SIGINT', onSigint);
  }
}

/** --yes, or a "y" typed on a terminal; off a terminal without --yes it is an error. */
async function confirm(yes: boolean): Promise<void> {
  if (yes) return;
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    throw new RunError('not on a terminal, so apply cannot ask: pass --yes to apply the plan above');
  }
  const prompt = createInterface({ input: process.stdin, output: process.stdout });
  let answer: string;
  try {
    answer = await prompt.question('Apply these changes? [y/N] ');
  } catch (error) {
    // Ctrl-C or Ctrl-D at the prompt rejects the question (AbortError): that is a "no" too.
    if ((error as Error).name !== 'AbortError') throw error;
    answer = '';
  } finally {
    prompt.close();
  }
  if (!/^y(es)?$/i.test(answer.trim())) throw new RunError('Apply cancelled; nothing was written.');
}

function parseCount(text: string): number {
  const value = parseWholeNumber(text, 0);
  if (value === null) throw new InvalidArgumentError('expected a whole number, 0 or more.');
  return value;
}
