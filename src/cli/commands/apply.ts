/**
 * `autojoin-sync apply`: make the service match the policy files (or a saved plan).
 * Order, as octoDNS's sync: plan → show it → safety limits → (saved plan) fingerprints →
 * confirmation → POST complete lists → report. Nothing is written before the confirmation.
 */
import { createInterface } from 'node:readline/promises';
import { InvalidArgumentError, Option, type Command } from 'commander';
import type { Plan } from '../../plan/types.js';
import { renderApplyReportJson, renderApplyReportText } from '../../render/index.js';
import { log } from '../../output/log.js';
import { writeStdout } from '../../output/sinks.js';
import { RunError, ExitCode } from '../../output/exit-codes.js';
import { applyRequestCommand, type ApplyRun, type Planned } from '../../commands/apply-request.js';
import { readSavedPlanCommand, savedPlanShard } from '../../commands/plan-files.js';
import { allowBehindRequest } from '../../commands/request-lists.js';
import { allowBehindOption, addServiceOptions, addTargetOptions, allowNoPoliciesOption, maxRemovalPercentOption, noPruneOption, replaceOption, pruneOption, shardOption, takeOwnershipOption, useColor } from '../options.js';
import { withJsonResult } from '../json-result.js';
import { withNotifications } from '../../render/notifications-json.js';
import { parseWholeNumber } from '../../run/numbers.js';
import type { SettingFlags } from '../../run/settings.js';
import { refuseUnreadablePaths, type Session, withSession } from '../session.js';
import { cliSettings } from '../cli-settings.js';
import { savedProjects } from '../../run/saved-projects.js';
import { planOrFail, takeOwnershipOf, type TargetFlags } from '../plan-or-fail.js';
import { printNotice, progressOf } from '../print.js';
import { renderPlan } from './plan.js';
import { ApplyInterrupt, INTERRUPTED_EXIT_CODE } from '../apply-interrupt.js';

interface ApplyFlags extends SettingFlags, TargetFlags {
  plan?: string;
  planSha256?: string;
  yes?: boolean;
  pruneFrom?: string;
  allowNoPolicies?: boolean;
  format: 'text' | 'json';
  takeOwnership?: string[];
  onlyExpired?: boolean;
  allowBehind?: string[];
  /** false with --no-notify: no notification is sent. */
  notify: boolean;
}

/** Registers `autojoin-sync apply`. */
export function register(program: Command): void {
  addTargetOptions(addServiceOptions(program.command('apply')))
    .description(
      'Plan as `plan` does, show the plan, check the safety limits, then POST the complete domain ' +
        'list of every changed scope and verify what the service stored. On a terminal apply asks ' +
        'before writing; without one it needs --yes. With --plan FILE it applies exactly that saved ' +
        'plan, and only if the live state of every scope in it is unchanged since it was made.',
    )
    .argument('[path...]', 'policy files or directories to load (default: .)')
    .option('--plan <file>', 'apply this saved plan (from `plan --out FILE`) instead of planning anew')
    .option('--plan-sha256 <hex>', 'refuse the saved plan unless its sha256 is this (what `plan --out` printed)')
    .option('-y, --yes', 'apply without asking (required when not on a terminal)')
    .option('--max-removals <n>', 'most domains this run may remove in total (beats safety.maxRemovals)', parseCount)
    .option('--only-expired', 'write only the removals of entries whose `expires` date has passed, nothing else (the daily job)')
    .option('--allow-empty', 'allow clearing scopes whose file does not say `domains: []` (a deleted file needs no flag)')
    .addOption(pruneOption())
    .addOption(noPruneOption())
    .option('--prune-from <gitrev>', 'narrow form of pruning: clear only scopes whose policy file existed at GITREV and is gone now')
    .addOption(allowNoPoliciesOption())
    .addOption(takeOwnershipOption())
    .addOption(allowBehindOption())
    .addOption(maxRemovalPercentOption())
    .addOption(replaceOption())
    .addOption(shardOption())
    .option('--no-notify', 'send no notification (the project file\'s notify: targets; docs/notifications.md)')
    .addOption(
      new Option('--format <format>', 'report format: json prints one document (schemas/apply-report.schema.json) on stdout and the plan on stderr')
        .choices(['text', 'json'])
        .default('text'),
    )
    .addHelpText(
      'after',
      `
Examples:
  $ autojoin-sync apply policies/
  $ autojoin-sync apply --yes                              # in CI, after a merge: prunes (full history checked out)
  $ autojoin-sync apply --yes --no-prune                   # leave scopes whose policy file is gone as they are
  $ autojoin-sync apply --yes --prune-from HEAD~1          # only what the last commit deleted
  $ autojoin-sync plan --out plan.json && autojoin-sync apply --plan plan.json --yes
  $ autojoin-sync apply --plan plan.json --plan-sha256 "$PLAN_SHA256" --yes   # the reviewed plan, byte for byte
  $ autojoin-sync apply --plan merged.json --plan-sha256 "$PLAN_SHA256" --shard 2/4 --yes   # shard 2 of a merged plan (merge-plans)
  $ autojoin-sync apply --yes --only-expired              # daily: revoke what expired, nothing else
  $ autojoin-sync apply --yes --max-removals 50 --max-removal-percent 80
  $ autojoin-sync apply --scope team/eng-api               # only this scope (as terraform -target)
  $ autojoin-sync apply --replace team/eng-api             # write it again although nothing differs (a new componentId)
  $ autojoin-sync apply --yes --take-ownership team/acme-eng   # take over a scope another owner marked
  $ autojoin-sync apply --yes --allow-behind '*'          # after a history rewrite: re-anchor every marker at HEAD
  $ autojoin-sync apply --yes --format json --quiet > report.json   # per scope: change, outcome, live domains after

Exit codes: 0 applied (or nothing to do) · 1 error, a scope failed, or not confirmed ·
3 refused by a safety limit (nothing written) · 4 saved plan is stale (nothing written) ·
130 interrupted (Ctrl-C; a second Ctrl-C during the writes prints what was written so far and stops)`,
    )
    .action((paths: string[], flags: ApplyFlags) => runApply(paths, flags));
}

async function runApply(paths: string[], flags: ApplyFlags): Promise<void> {
  // Ctrl-C, from here to the end, is exit 130 (./apply-interrupt.ts says what each moment prints).
  const interrupt = new ApplyInterrupt((plan, report) => writeStdout(flags.format === 'json' ? renderApplyReportJson(plan, report) : renderApplyReportText(report, { color: useColor() })));
  try {
    await applyWithInterrupt(paths, flags, interrupt);
  } finally {
    interrupt.dispose();
    if (interrupt.interrupted) process.exitCode = INTERRUPTED_EXIT_CODE;
  }
}

async function applyWithInterrupt(paths: string[], flags: ApplyFlags, interrupt: ApplyInterrupt): Promise<void> {
  await withJsonResult(flags.format === 'json', async () => {
    checkApplyFlags(paths, flags);
    allowBehindRequest(flags.allowBehind ?? []);
    // A saved plan is read first: the run's context is rebuilt from the one it records.
    const saved = flags.plan ? await readSavedPlanCommand(flags.plan, flags.planSha256) : undefined;
    const settings = await cliSettings(paths, flags, saved ? { context: savedContext(saved, flags.plan ?? ''), file: flags.plan ?? '', ...savedProjects(saved) } : undefined);
    if (!flags.plan && !flags.allowNoPolicies) await refuseUnreadablePaths(settings);
    return withSession(settings, async (session) => {
      // The command runs the whole request: the plan, the checks, the writes, the report (shown here), then the notifications.
      const run = await applyRequest(flags, session, saved, interrupt);
      if (run.error !== undefined) return { error: run.error, plan: run.plan, notifications: run.notifications };
      // The JSON document once the messages are delivered.
      if (flags.format === 'json' && run.plan && run.report) {
        const document = renderApplyReportJson(run.plan, run.report);
        writeStdout(run.notifications.length > 0 ? withNotifications(document, run.notifications) : document);
      }
      if (run.exitCode !== ExitCode.ok) process.exitCode = run.exitCode;
      return undefined;
    });
  });
}

/** The plan (made, or the saved one's part), shown, then applied with the confirmation. */
function planned(flags: ApplyFlags, session: Session, saved: Plan | undefined): () => Promise<Planned> {
  return async () => {
    const whole = saved ?? (await planOrFail({ ...session, flags, label: 'read' }));
    return { plan: flags.plan ? savedPlanShard(whole, flags.plan, flags.shard) : whole, whole };
  };
}

/** apply --plan --shard K/N: the shard a message says it reports. */
function shardOf(flags: ApplyFlags): { shard?: string } {
  return flags.shard === undefined ? {} : { shard: flags.shard };
}

/** The context a saved plan records (the schema requires it from formatVersion 4 on). */
function savedContext(plan: Plan, file: string): NonNullable<Plan['context']> {
  if (!plan.context) throw new RunError(`${file} records no run context; make the plan again with this version`);
  return plan.context;
}

function checkApplyFlags(paths: string[], flags: ApplyFlags): void {
  if (flags.plan && (paths.length > 0 || flags.pruneFrom || flags.prune || flags.allowNoPolicies || flags.scope || flags.excludeScope || flags.replace || flags.onlyExpired)) {
    throw new RunError('--plan FILE applies a saved plan; do not also give paths, --prune, --prune-from, --allow-no-policies, --scope, --exclude-scope, --replace or --only-expired');
  }
  if (flags.shard !== undefined && !flags.plan) {
    throw new RunError('apply --shard K/N applies one shard of a merged plan: give --plan FILE (from merge-plans); without it the safety limits would be decided per shard');
  }
  if (flags.planSha256 !== undefined && !flags.plan) throw new RunError('--plan-sha256 pins a saved plan: give --plan FILE too');
}

/**
 * Shows the plan: on stdout, as the result; on stderr with --format json (stdout holds the
 * report), and when apply will ask but stdout is not a terminal (`apply | tee apply.log`),
 * so the plan is seen before the question.
 */
function showPlan(plan: Plan, flags: ApplyFlags): void {
  const text = renderPlan(plan);
  if (flags.format === 'json') (flags.yes ? log().info : log().always)(text.trimEnd());
  else if (willAsk(flags) && !isTerminal(process.stdout)) log().always(text.trimEnd());
  else writeStdout(text); // an empty plan renders as "No changes. …"
}

/** apply asks whenever stdin is a terminal, unless --yes. */
function willAsk(flags: ApplyFlags): boolean {
  return !flags.yes && isTerminal(process.stdin);
}

/** @types/node says `isTTY: boolean`, but a piped stream has none (undefined). */
function isTerminal(stream: { isTTY?: boolean }): boolean {
  return stream.isTTY === true;
}

/**
 * The apply request with the confirmation, Ctrl-C and progress of a terminal: a new plan is shown
 * before its checks; a saved plan once its checks passed (a stale one, with changes or none, is
 * refused before it is printed), before the question; the text report before the notifications.
 */
async function applyRequest(flags: ApplyFlags, { client, settings, target }: Session, saved: Plan | undefined, interrupt: ApplyInterrupt): Promise<ApplyRun> {
  const progress = progressOf('applied');
  let shown: Plan | undefined;
  try {
    return await applyRequestCommand({
      client,
      planned: planned(flags, { client, settings, target }, saved),
      context: settings,
      target,
      saved: flags.plan !== undefined,
      takeOwnership: takeOwnershipOf(flags),
      allowBehind: flags.allowBehind ?? [],
      notify: { enabled: flags.notify, service: target, onWarning: (text) => log().warn(text), ...shardOf(flags) },
      view: {
        onPlan: (plan) => {
          shown = plan;
          if (!flags.plan) showPlan(plan, flags);
        },
        onReport: (report, plan) => {
          interrupt.written();
          progress.done();
          if (flags.format !== 'json' && plan.changes.length > 0) writeStdout(renderApplyReportText(report, { color: useColor() }));
        },
        onStopped: () => progress.done(),
      },
      onNotice: printNotice,
      confirm: () => {
        if (flags.plan && shown) showPlan(shown, flags);
        // Nothing to write: nothing to ask.
        if (!shown || shown.changes.length === 0) return Promise.resolve();
        const writing = shown;
        return confirm(flags).then(() => interrupt.writing(writing));
      },
      onProgress: (done, total, soFar) => {
        progress.update(done, total);
        interrupt.progress(soFar);
      },
      signal: interrupt.signal,
    });
  } finally {
    interrupt.written();
    progress.done();
  }
}

/** --yes, or `yes` typed when stdin is a terminal (as Terraform, nothing else approves); without either it is an error. */
async function confirm(flags: ApplyFlags): Promise<void> {
  if (flags.yes) return;
  if (!willAsk(flags)) throw new RunError('stdin is not a terminal, so apply cannot ask: pass --yes to apply the plan above');
  // The question goes where the plan went: stdout on a terminal, else stderr.
  const output = flags.format !== 'json' && isTerminal(process.stdout) ? process.stdout : process.stderr;
  const prompt = createInterface({ input: process.stdin, output });
  let answer: string;
  try {
    answer = await prompt.question("Apply these changes? Only 'yes' will be accepted to approve.\n  Enter a value: ");
  } catch (error) {
    // Ctrl-C or Ctrl-D at the prompt rejects the question (AbortError): that is a "no" too.
    if ((error as Error).name !== 'AbortError') throw error;
    answer = '';
  } finally {
    prompt.close();
  }
  if (answer.trim() !== 'yes') throw new RunError('Apply cancelled (only `yes` approves); nothing was written.');
}

function parseCount(text: string): number {
  const value = parseWholeNumber(text, 0);
  if (value === null) throw new InvalidArgumentError('expected a whole number, 0 or more.');
  return value;
}
