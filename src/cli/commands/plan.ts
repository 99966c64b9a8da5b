/**
 * `autojoin-sync plan`: what would change, in text, markdown or JSON, without writing anything.
 */
import { isAbsolute, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import type { Plan } from '../../plan/types.js';
import { writePlanCommand } from '../../commands/plan-files.js';
import { concludePlan } from '../../commands/plan-command.js';
import type { Verdict } from '../../commands/verdict.js';
import { renderJson, renderMarkdown, renderText, unsafeMarkdown } from '../../render/index.js';
import type { SettingFlags } from '../../run/settings.js';
import { ExitCode } from '../../output/exit-codes.js';
import { log } from '../../output/log.js';
import { writeStdout } from '../../output/sinks.js';
import { addDnsOptions, addServiceOptions, addTargetOptions, allowNoPoliciesOption, maxRemovalPercentOption, noPruneOption, replaceOption, pruneOption, shardOption, takeOwnershipOption, formatOption, useColor, contextFlags, type DnsFlags } from '../options.js';
import { withJsonResult } from '../json-result.js';
import { withNotifications } from '../../render/notifications-json.js';
import { refuseUnreadablePaths, withSession } from '../session.js';
import { cliSettings } from '../cli-settings.js';
import { planOrFail, takeOwnershipOf, type TargetFlags } from '../plan-or-fail.js';

type Format = 'text' | 'markdown' | 'json';

interface PlanFlags extends SettingFlags, DnsFlags, TargetFlags {
  out?: string;
  format: Format;
  detailedExitcode?: boolean;
  pruneFrom?: string;
  allowNoPolicies?: boolean;
  changedSince?: string;
  takeOwnership?: string[];
  /** --notify: the scheduled drift job tells the project file's notify: targets what it found. */
  notify?: boolean;
}

/** Registers `autojoin-sync plan`. */
export function register(program: Command): void {
  addTargetOptions(addDnsOptions(addServiceOptions(program.command('plan'))))
    .description(
      'Load the policy files under PATH (default: the current directory), read the live state of ' +
        'their scopes from the Invitation Service and show what `apply` would change. ' +
        'The plan goes to stdout; notices and progress go to stderr.',
    )
    .argument('[path...]', 'policy files or directories to load (default: .)')
    .option('--out <file>', 'also save the plan as JSON, for `apply --plan FILE`; prints its sha256 on stderr')
    .addOption(formatOption(['text', 'markdown', 'json']))
    .option('--detailed-exitcode', 'exit 2 when changes are pending (0 when there are none)')
    .addOption(pruneOption())
    .addOption(noPruneOption())
    .option('--prune-from <gitrev>', 'narrow form of pruning: clear only scopes whose policy file existed at GITREV and is gone now')
    .option('--changed-since <gitrev>', 'plan only the policy files changed since GITREV (fast pull-request plans; never prunes, only names the scopes whose policy is gone)')
    .addOption(allowNoPoliciesOption())
    .addOption(shardOption())
    .addOption(maxRemovalPercentOption())
    .addOption(replaceOption())
    .addOption(takeOwnershipOption())
    .option('--notify', 'tell the project file\'s notify: targets about changes made outside this repository and pending changes (the scheduled drift job; docs/notifications.md)')
    .addHelpText(
      'after',
      `
Examples:
  $ autojoin-sync plan policies/
  $ autojoin-sync plan --format markdown > plan.md
  $ autojoin-sync plan --out plan.json && autojoin-sync apply --plan plan.json
  $ autojoin-sync plan --no-prune                 # leave scopes whose policy file was deleted as they are
  $ autojoin-sync plan --detailed-exitcode --prune-from origin/main
  $ autojoin-sync plan --scope team/eng-api --scope team/eng-web   # only these scopes (as terraform -target)
  $ autojoin-sync plan --exclude-scope team/legacy --shard 1/4
  $ autojoin-sync plan --dns --dns-strict   # first every domain over DNS; an error or a timeout plans nothing
  $ autojoin-sync plan --take-ownership team/acme-eng   # a scope another repository's owner marked
  $ autojoin-sync plan --verbose            # also one stderr line per HTTP request (method, path, status, ms)
  $ HTTPS_PROXY=http://proxy:3128 NODE_EXTRA_CA_CERTS=corp-ca.pem autojoin-sync plan

Exit codes: 0 no changes (or changes without --detailed-exitcode) · 1 invalid policy files or
another error · 2 changes pending (with --detailed-exitcode)`,
    )
    .action((paths: string[], flags: PlanFlags) => runPlan(paths, flags));
}

async function runPlan(paths: string[], flags: PlanFlags): Promise<void> {
  await withJsonResult(flags.format === 'json', async () => {
    const settings = await cliSettings(paths, flags);
    if (!flags.allowNoPolicies) await refuseUnreadablePaths(settings);
    return withSession(settings, async ({ client, target }) => {
      const notify = { enabled: flags.notify === true, service: target, onWarning: (text: string) => log().warn(text) };
      const plan = await planOrFail({ client, settings, target, flags, label: 'read', notify });
      try {
        if (flags.out) await savePlan(flags.out, plan, { base: settings.base, ...(flags.shard === undefined ? {} : { shard: flags.shard }) });
        const json = flags.format === 'json';
        // The report first (the notification step runs after it); the JSON document once the messages are delivered.
        const concluded = await concludePlan(plan, settings, takeOwnershipOf(flags), { detailedExitcode: flags.detailedExitcode === true, notify, show: ({ verdict }) => showPlan(plan, verdict, flags.format) });
        if (json) writeStdout(concluded.notifications.length > 0 ? withNotifications(renderPlan(plan, 'json'), concluded.notifications) : renderPlan(plan, 'json'));
        if (concluded.exitCode !== ExitCode.ok) process.exitCode = concluded.exitCode;
        return undefined;
      } catch (error) {
        return { error, plan };
      }
    });
  });
}

/** The plan on stdout (not JSON: that comes once delivered), with the cautions of its verdict. */
function showPlan(plan: Plan, verdict: Verdict, format: Format): void {
  const cautions = verdict.refusals.map((refusal) => refusal.message);
  // Markdown carries the caution as the pull-request comment does; every format gets the warning on stderr.
  if (format !== 'json') writeStdout((format === 'markdown' ? unsafeMarkdown(cautions, verdict.exitCode) : '') + renderPlan(plan, format));
  noticeUnmarked(plan);
  for (const caution of cautions) log().warn(`apply would refuse this plan: ${caution}`);
}

/**
 * Writes the plan file (never through a symlink) and prints its sha256 on stderr, with the next
 * command as it works from here: a shard's part is merged first (`merge-plans`); a whole plan is
 * pinned (`apply --plan … --plan-sha256 …`), with `-C` naming the repository when this run was
 * started outside it (apply --plan finds the project file from its working directory).
 * @param where the run's base (its repository's root) and the shard this part is, if one
 */
export async function savePlan(file: string, plan: Plan, where: { base?: string; shard?: string } = {}): Promise<void> {
  const digest = await writePlanCommand(file, plan);
  log().always(`saved the plan to ${file}; sha256 ${digest}\n(${nextCommand(file, digest, where)})`);
}

/** @returns the command that takes a saved plan on, as it works from this run's working directory. */
export function nextCommand(file: string, digest: string, where: { base?: string; shard?: string; cwd?: string; chdir?: string }): string {
  const { chdir } = where.chdir === undefined ? contextFlags() : where;
  const cwd = where.cwd ?? process.cwd();
  // As printed, it works from the directory this run was started in: -C again when it was given, -C the repository when outside it.
  const outside = chdir === undefined && where.base !== undefined && !isInside(cwd, where.base);
  const dir = chdir ?? (outside ? where.base : undefined);
  const at = dir === undefined ? '' : ` -C ${shellWord(dir)}`;
  const named = outside ? resolve(cwd, file) : file;
  if (where.shard !== undefined) {
    const [, count] = where.shard.split('/');
    return `a shard's part is applied only once merged: autojoin-sync${at} merge-plans ${shellWord(named)} ${count === undefined ? 'and the other parts' : `and the other parts of ${count}`} --out plan.json, then pin the merged plan as it prints`;
  }
  return `pin it: autojoin-sync${at} apply --plan ${shellWord(named)} --plan-sha256 ${digest}`;
}

/** @returns whether `dir` is `root` or below it. */
function isInside(dir: string, root: string): boolean {
  const rel = relative(resolve(root), resolve(dir));
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** A word as a POSIX shell reads it back: as it is when plain, else single-quoted. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/u.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Renders a plan for stdout in the chosen format (each ends in a newline); colour only for a terminal without NO_COLOR. */
export function renderPlan(plan: Plan, format: Format = 'text'): string {
  if (format === 'json') return renderJson(plan);
  return format === 'markdown' ? renderMarkdown(plan) : renderText(plan, { color: useColor(), verbose: log().level === 'verbose' });
}

/** Scopes pruning leaves alone are named on stderr with --verbose when the format does not list them (text does itself). */
function noticeUnmarked(plan: Plan): void {
  if (plan.notManagedHere.length === 0) return;
  log().debug(`not managed here (not cleared): ${plan.notManagedHere.map((entry) => `${entry.key} (${entry.owner === null ? 'no marker' : `owner "${entry.owner}"`})`).join(', ')}`);
}
