/**
 * `command: adopt`: the scheduled drift job's way to keep what was changed outside git. It plans,
 * writes the live state of every drifted scope into its policy file (src/reconcile/adopt.ts),
 * commits that on the branch `autojoin-sync/adopt`, and opens or updates one pull request that
 * lists each scope's outside change and when it was made. Nothing is written to the service.
 */
import * as core from './runner.js';
import { adoptDrift, type Drifted } from '../reconcile/adopt.js';
import { ExitCode } from '../run/exit-codes.js';
import { outsideLine } from '../render/describe.js';
import { escapeMarkdown } from '../render/escape.js';
import { plural } from '../text.js';
import { ADOPT_BRANCH, pushAdoptBranch } from './adopt-branch.js';
import { upsertPullRequest } from './pull-request.js';
import type { ActionInputs, WorkflowContext } from './inputs.js';
import { planFor, withClient, writeJobSummary, type StepOutcome } from './steps.js';
import type { RunSettings } from '../run/settings.js';
import type { ScopeKey } from '../scope.js';

/** Marks the pull request body as this action's. */
const ADOPT_MARKER = '<!-- autojoin-sync:adopt -->';

/** `adopt`: the live state of drifted scopes into their files, on a branch, as one pull request. */
export async function adoptStep(inputs: ActionInputs, context: WorkflowContext, given: RunSettings): Promise<StepOutcome> {
  // Adopting writes files from live state: it never prunes.
  const settings: RunSettings = { ...given, prune: false };
  return withClient(settings, async (client) => {
    const { plan, load } = await planFor(inputs, context, settings, client);
    if (!plan) return { exitCode: ExitCode.error, summary: `no plan: ${plural(load.diagnostics.length, 'diagnostic')} (see the annotations)`, hasChanges: false };
    const result = await adoptDrift(plan, settings.base);
    const driftCount = result.adopted.length + result.conflicts.length;
    if (result.adopted.length === 0) {
      const summary = result.conflicts.length === 0 ? 'No drift: nothing to adopt.' : `Nothing adopted: ${plural(result.conflicts.length, 'conflict')} to settle by hand.`;
      await writeJobSummary(`### autojoin-sync adopt\n\n${summary}\n`);
      return { exitCode: ExitCode.ok, summary, hasChanges: false, driftCount };
    }
    const body = pullRequestBody(result.adopted, result.conflicts);
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

/** The pull request body: each scope's outside change and when it was made, then the conflicts left out. */
export function pullRequestBody(adopted: readonly Drifted[], conflicts: readonly ScopeKey[]): string {
  const rows = adopted.map((entry) => `| \`${escapeMarkdown(entry.key)}\` | ${escapeMarkdown(outsideLine({ ...entry.outside, modifiedAt: undefined }).replace(/^outside: /, ''))} | ${escapeMarkdown(entry.outside.modifiedAt ?? 'not shown')} | ${escapeMarkdown(`${entry.source.file}:${entry.source.line}`)} |`);
  const left = conflicts.length === 0 ? '' : `\n\n**Not adopted** (changed here and outside; edit by hand): ${conflicts.map((key) => `\`${escapeMarkdown(key)}\``).join(', ')}`;
  return [
    ADOPT_MARKER,
    '### autojoin-sync: changes made outside this repository',
    '',
    'These scopes were changed outside git (for example by an admin in the widget). Merging this pull request keeps the changes; closing it and running apply reverts them.',
    '',
    '| scope | changed outside | modified | file |',
    '|---|---|---|---|',
    ...rows,
  ].join('\n') + left;
}
