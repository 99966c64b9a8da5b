/**
 * `command: adopt`: the scheduled drift job's way to keep what was changed outside git. It plans,
 * writes the live state of every drifted scope into its policy file (src/reconcile/adopt-drift.ts),
 * commits that on the branch `autojoin-sync/adopt`, and opens or updates one pull request that
 * lists each scope's outside change and when it was made. Nothing is written to the service.
 */
import * as core from './runner.js';
import type { Drifted, NotAdopted } from '../reconcile/adopt-drift.js';
import { adoptCommand, adoptContext } from '../commands/adopt-command.js';
import { ExitCode } from '../output/exit-codes.js';
import { escapeControls } from '../escape.js';
import { cutText, redactText, shownLive } from '../redact.js';
import { joinBounded } from '../render/bounded.js';
import { notAdoptedReason } from '../render/describe.js';
import { plural } from '../text.js';
import { ADOPT_BRANCH, pushAdoptBranch } from '../commands/adopt-branch.js';
import { upsertPullRequest } from './pull-request.js';
import type { ActionInputs, WorkflowContext } from './inputs.js';
import { planFor, withClient, writeJobSummary, type StepOutcome } from './steps.js';
import type { RunSettings } from '../run/settings.js';
import type { ScopeKey } from '../scope.js';

/** Marks the pull request body as this action's. */
const ADOPT_MARKER = '<!-- autojoin-sync:adopt -->';

/** `adopt`: the live state of drifted scopes into their files, on a branch, as one pull request. */
export async function adoptStep(inputs: ActionInputs, context: WorkflowContext, given: RunSettings): Promise<StepOutcome> {
  const settings = adoptContext(given);
  return withClient(settings, async (client) => {
    const { plan, load } = await planFor(inputs, context, settings, client);
    if (!plan) return { exitCode: ExitCode.error, summary: `no plan: ${plural(load.diagnostics.length, 'diagnostic')} (see the annotations)`, hasChanges: false };
    const result = await adoptCommand({ context: settings, plan });
    const driftCount = result.adopted.length + result.conflicts.length;
    for (const entry of result.notAdopted) core.warning(`not adopted: ${escapeControls(entry.key)}: ${escapeControls(notAdoptedReason(entry))}`);
    // Nothing written, nothing to propose: no branch, no pull request.
    if (result.adopted.length === 0 || result.files.length === 0) {
      const summary = result.conflicts.length + result.notAdopted.length === 0 ? 'Nothing to adopt.' : `Nothing adopted: ${plural(result.conflicts.length + result.notAdopted.length, 'scope')} to settle by hand.`;
      await writeJobSummary(`### autojoin-sync adopt\n\n${summary}\n`);
      return { exitCode: ExitCode.ok, summary, hasChanges: false, driftCount };
    }
    const body = pullRequestBody(result.adopted, result.conflicts, result.notAdopted);
    await pushAdoptBranch(settings.base, result.files, `Adopt ${plural(result.adopted.length, 'scope')} changed outside this repository`);
    const url = await openPullRequest(inputs, context, body);
    const summary = `Adopted ${plural(result.adopted.length, 'scope')} into ${plural(result.files.length, 'file')}: ${url}`;
    await writeJobSummary(`${body}\n`);
    return { exitCode: ExitCode.ok, summary, hasChanges: true, driftCount, pullRequestUrl: url };
  });
}

async function openPullRequest(inputs: ActionInputs, context: WorkflowContext, body: string): Promise<string> {
  if (!inputs.githubToken || !context.owner || !context.repo) throw new Error('command adopt opens a pull request: give the github-token input (contents: write, pull-requests: write)');
  if (!context.defaultBranch) throw new Error('command adopt: the repository\'s default branch is unknown (no event payload and no GITHUB_REF_NAME)');
  const target = { apiUrl: context.apiUrl, token: inputs.githubToken, owner: context.owner, repo: context.repo };
  const spec = { head: ADOPT_BRANCH, base: context.defaultBranch, title: 'autojoin-sync: adopt changes made outside this repository', body };
  const pull = await upsertPullRequest(target, spec);
  core.info(`${pull.action} pull request #${pull.number}`);
  return pull.url;
}

/** GitHub refuses a pull request body of 65,536 characters or more; the plan comment is cut the same way. */
export const ADOPT_BODY_MAX_CHARS = 60_000;

/**
 * The pull request body: each scope's outside change and when it was made, then the conflicts
 * left out. Bounded (rows that do not fit are counted, as the plan comment does) and inert: every
 * value from live data or files stands in a code span, where GitHub makes no link, mention, HTML
 * or image of it.
 */
export function pullRequestBody(adopted: readonly Drifted[], conflicts: readonly ScopeKey[], notAdopted: readonly NotAdopted[] = []): string {
  const rows = adopted.map((entry) => `| ${inert(entry.key)} | ${outsideCell(entry)} | ${inert(entry.outside.modifiedAt ?? 'not shown')} | ${inert(`${entry.source.file}:${entry.source.line}`)} |`);
  const left = [
    ...(conflicts.length === 0 ? [] : [`**Not adopted** (changed here and outside; edit by hand): ${conflicts.map(inert).join(', ')}`]),
    ...notAdopted.map((entry) => `**Not adopted**: ${inert(entry.key)}: ${inert(notAdoptedReason(entry))}`),
  ];
  const head = [
    ADOPT_MARKER,
    '### autojoin-sync: changes made outside this repository',
    '',
    'These scopes were changed outside git (for example by an admin in the widget). Merging this pull request keeps the changes; closing it and running apply reverts them.',
    '',
    '| scope | changed outside | modified | file |',
    '|---|---|---|---|',
  ].join('\n');
  return joinBounded({
    head,
    blocks: rows,
    preference: rows.map((_, index) => index),
    blockSeparator: '\n',
    footer: left.length === 0 ? undefined : cutText(left.join('\n\n'), 10_000),
    maxChars: ADOPT_BODY_MAX_CHARS,
    omittedNote: (omitted) => `… and ${String(omitted).padStart(7, ' ')} more scopes adopted; the job log lists them all.`,
  }).trimEnd();
}

function outsideCell(entry: Drifted): string {
  const { added, removed, fields } = entry.outside;
  const parts = [
    ...added.map((domain) => `+${inert(domain)}`),
    ...removed.map((domain) => `-${inert(domain)}`),
    ...fields.map((field) => `${field.field} → ${inert(typeof field.after === 'string' ? field.after : JSON.stringify(field.after))}`),
  ];
  return parts.join(' ');
}

/**
 * @returns `text` as an inline code span that is safe in a table cell: controls escaped, one
 *   line, a pipe escaped for the table, fenced by more backticks than it holds
 */
export function inert(text: string): string {
  // Redacted whole, then cut (cutText): a key straddling the cut shows no part of it.
  const line = shownLive(escapeControls(redactText(text).replace(/[\r\n]+/g, ' '))).replace(/\|/g, '\\|');
  const longest = Math.max(0, ...(line.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = line.startsWith('`') || line.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${line}${pad}${fence}`;
}
