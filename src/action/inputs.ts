/**
 * The action's inputs (action.yml) and the workflow context it runs in, parsed into plain data.
 * Both take their source as an argument (an input getter, an environment), so they stay pure.
 */
import { readFileSync } from 'node:fs';
import type { ReadMode } from '../service/types.js';
import { READ_MODES } from '../run/setting-values.js';
import { MAX_CONCURRENCY, parseWholeNumber } from '../run/numbers.js';
import { shardRequest } from '../commands/request-lists.js';

export type ActionCommand = 'validate' | 'plan' | 'apply' | 'adopt' | 'merge-plans';

/** Everything action.yml declares, parsed and checked. */
export interface ActionInputs {
  command: ActionCommand;
  /** Files or directories of policy files, relative to the workspace (one per line). */
  paths: string[];
  baseUrl?: string;
  apiKey?: string;
  githubToken?: string;
  comment: boolean;
  /** The login the sticky comment must be written by (`github-actions[bot]` for GITHUB_TOKEN; `NAME[bot]` for an App). */
  commentAuthor: string;
  pruneFrom?: string;
  /** Prune from git history (`--prune` / `--no-prune`); unset: the project file's `prune`, else on. */
  prune?: boolean;
  /** Paths without any policy file are not an error. */
  allowNoPolicies: boolean;
  maxRemovals?: number;
  /** Beats safety.maxRemovalPercent of the project file (as --max-removal-percent). */
  maxRemovalPercent?: number;
  /** Only these scopes (TYPE/ID, one per line), as --scope; exclude these, as --exclude-scope. */
  scope?: string[];
  excludeScope?: string[];
  allowEmpty: boolean;
  concurrency?: number;
  /** How live state is read; unset: AUTOJOIN_READ, then the project file, then the default (src/run/settings.ts). */
  read?: ReadMode;
  /** The old name of `read`. */
  listing?: ReadMode;
  /** Fail the step when the plan has changes (drift detection). */
  detailedExitcode: boolean;
  /** apply: the saved plan to apply (from a plan step's `plan-json`), relative to the workspace. */
  planFile?: string;
  /** The saved plan's sha256 (a plan step's `plan-sha256` output); required with planFile. */
  planSha256?: string;
  /** The DNS check (src/run/dns.ts): `dns`, `dns-servers` (lines or commas), `dns-strict`. */
  dns: { dns?: boolean; servers: string[]; serversFrom: string; strict: boolean };
  /** `TYPE/ID` of scopes to take over from another owner (as --take-ownership); newline or comma separated. */
  takeOwnership: string[];
  /** `K/N`: a matrix job's shard (plan writes its part and posts nothing; apply applies shard K of the merged plan). */
  shard?: string;
  /** merge-plans: the shard plans to merge, paths or globs (`*`, `?` in the file name) relative to the workspace, one per line. */
  planFiles?: string[];
  /** apply: record each apply as a GitHub deployment to this environment (src/action/deployments.ts). */
  deploymentEnvironment?: string;
  /** apply: write only the removals by expiry (as --only-expired; the daily job). */
  onlyExpired: boolean;
  /** `allow-behind`: scopes (TYPE/ID globs, `*`) this run may write although their marker's commit is not in this checkout. */
  allowBehind: string[];
  /** `notify`: tell the project file's notify: targets; unset: true for apply, false for plan (src/action/steps.ts). */
  notify?: boolean;
}

/** Reads one input by its action.yml name; '' when unset (what @actions/core's getInput returns). */
export type InputGetter = (name: string) => string;

/**
 * Parses the inputs; an invalid value throws an Error naming the input and what it accepts.
 * @param get reads an input (core.getInput in the action)
 */
export function parseInputs(get: InputGetter): ActionInputs {
  const text = (name: string): string | undefined => get(name).trim() || undefined;
  const mode = (name: string): ReadMode | undefined => {
    const value = text(name);
    return value === undefined ? undefined : oneOf(name, value, READ_MODES);
  };
  return {
    command: oneOf('command', text('command') ?? 'plan', ['validate', 'plan', 'apply', 'adopt', 'merge-plans'] as const),
    paths: (text('path') ?? '.').split('\n').map((line) => line.trim()).filter(Boolean),
    baseUrl: text('base-url'),
    apiKey: text('api-key'),
    githubToken: text('github-token'),
    comment: bool('comment', text('comment'), true),
    commentAuthor: text('comment-author') ?? 'github-actions[bot]',
    pruneFrom: text('prune-from'),
    prune: optionalBool('prune', text('prune')),
    allowNoPolicies: bool('allow-no-policies', text('allow-no-policies'), false),
    maxRemovals: count('max-removals', text('max-removals'), 0),
    maxRemovalPercent: percent('max-removal-percent', text('max-removal-percent')),
    scope: lines(text('scope')),
    excludeScope: lines(text('exclude-scope')),
    allowEmpty: bool('allow-empty', text('allow-empty'), false),
    concurrency: count('concurrency', text('concurrency'), 1, MAX_CONCURRENCY),
    read: mode('read'),
    listing: mode('listing'),
    detailedExitcode: bool('detailed-exitcode', text('detailed-exitcode'), false),
    takeOwnership: scopeList(text('take-ownership')),
    shard: shardInput(text('shard')),
    planFiles: lines(text('plan-files')),
    deploymentEnvironment: text('deployment-environment'),
    onlyExpired: bool('only-expired', text('only-expired'), false),
    allowBehind: lines(text('allow-behind')) ?? [],
    ...definedNotify(optionalBool('notify', text('notify'))),
    ...savedPlan(text('plan-file'), text('plan-sha256')),
    dns: {
      dns: optionalBool('dns', text('dns')),
      servers: (text('dns-servers') ?? '').split(/[\n,]/u).map((server) => server.trim()).filter(Boolean),
      serversFrom: 'input dns-servers',
      strict: bool('dns-strict', text('dns-strict'), false),
    },
  };
}

function definedNotify(notify: boolean | undefined): Pick<ActionInputs, 'notify'> {
  return notify === undefined ? {} : { notify };
}

/** A saved plan is only applied pinned: between the plan job and the apply job anyone with access to the artifact could edit it. */
function savedPlan(planFile: string | undefined, planSha256: string | undefined): Pick<ActionInputs, 'planFile' | 'planSha256'> {
  if (planFile === undefined && planSha256 === undefined) return {};
  if (planFile === undefined) throw new Error('input plan-sha256 pins a saved plan: give plan-file too');
  if (planSha256 === undefined) throw new Error('input plan-file needs plan-sha256 (the plan step\'s plan-sha256 output), so only the reviewed plan is applied');
  return { planFile, planSha256 };
}

/** `K/N`, checked as --shard is (the message names the input). */
function shardInput(value: string | undefined): string | undefined {
  if (value !== undefined) shardRequest(value);
  return value;
}

/** `team/a, team/b` or one per line: each `TYPE/ID` (checked where it is used, with the CLI's message). */
function scopeList(value: string | undefined): string[] {
  return (value ?? '').split(/[,\n]/).map((item) => item.trim()).filter(Boolean);
}

function oneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new Error(`input ${name}: "${value}" is not one of ${allowed.join(', ')}`);
}

// The YAML 1.2 core schema booleans, as @actions/core's getBooleanInput accepts them.
function bool(name: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (['true', 'True', 'TRUE'].includes(value)) return true;
  if (['false', 'False', 'FALSE'].includes(value)) return false;
  throw new Error(`input ${name}: "${value}" is not a boolean; use true or false`);
}

function percent(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (Number.isFinite(parsed) && parsed >= 0 && parsed <= 100) return parsed;
  throw new Error(`input ${name}: "${value}" is not a number from 0 to 100`);
}

/** One value per line (blank lines ignored); undefined when unset. */
function lines(value: string | undefined): string[] | undefined {
  return value?.split('\n').map((line) => line.trim()).filter(Boolean);
}

function optionalBool(name: string, value: string | undefined): boolean | undefined {
  return value === undefined ? undefined : bool(name, value, false);
}

function count(name: string, value: string | undefined, min: number, max?: number): number | undefined {
  if (value === undefined) return undefined;
  const parsed = parseWholeNumber(value, min, max);
  if (parsed !== null) return parsed;
  throw new Error(`input ${name}: "${value}" is not a whole number ${max === undefined ? `>= ${min}` : `from ${min} to ${max}`}`);
}

/** What the action needs to know of the workflow run. */
export interface WorkflowContext {
  eventName: string;
  owner?: string;
  repo?: string;
  /** The pull request's number, when the event is about one. */
  pullNumber?: number;
  apiUrl: string;
  /** Link to this run, for the comment's pointer to the job summary. */
  runUrl?: string;
  workspace: string;
  runnerTemp: string;
  /** The step's id (GITHUB_ACTION), unique within the job; names the plan file. */
  stepId: string;
  /** The repository's default branch (the event payload's), else the ref the run is on: what adopt's pull request merges into. */
  defaultBranch?: string;
  /** The pull request's base commit (`pull_request.base.sha`), when the event is about one: what its changed files are found against. */
  pullBase?: string;
}

/**
 * Reads the context from the runner's environment and event payload (GITHUB_EVENT_PATH).
 * @param env the process environment
 */
export function readWorkflowContext(env: NodeJS.ProcessEnv): WorkflowContext {
  const [owner, repo] = (env.GITHUB_REPOSITORY ?? '').split('/');
  const serverUrl = env.GITHUB_SERVER_URL ?? 'https://github.com';
  const payload = readPayload(env.GITHUB_EVENT_PATH);
  return {
    eventName: env.GITHUB_EVENT_NAME ?? '',
    owner: owner || undefined,
    repo: repo || undefined,
    pullNumber: pullNumberOf(payload),
    apiUrl: env.GITHUB_API_URL || 'https://api.github.com',
    runUrl: env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID ? `${serverUrl}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}` : undefined,
    workspace: env.GITHUB_WORKSPACE || process.cwd(),
    runnerTemp: env.RUNNER_TEMP || env.TMPDIR || '/tmp',
    stepId: env.GITHUB_ACTION || 'autojoin-sync',
    defaultBranch: defaultBranchOf(payload) ?? (env.GITHUB_REF_NAME || undefined),
    ...pullBaseOf(payload),
  };
}

/** @returns the pull request's base commit as `{pullBase}` (a full hex id only), or {} */
function pullBaseOf(payload: unknown): { pullBase?: string } {
  const sha = (payload as { pull_request?: { base?: { sha?: unknown } } } | undefined)?.pull_request?.base?.sha;
  return typeof sha === 'string' && /^[0-9a-f]{40,64}$/.test(sha) ? { pullBase: sha } : {};
}

function defaultBranchOf(payload: unknown): string | undefined {
  const repository = (payload as { repository?: { default_branch?: unknown } } | undefined)?.repository;
  return typeof repository?.default_branch === 'string' && repository.default_branch !== '' ? repository.default_branch : undefined;
}

function readPayload(path: string | undefined): unknown {
  if (!path) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** The PR number of a pull_request / pull_request_target payload (or an issue that is a PR). */
export function pullNumberOf(payload: unknown): number | undefined {
  const event = payload as { pull_request?: { number?: unknown }; issue?: { number?: unknown; pull_request?: unknown } } | undefined;
  const number = event?.pull_request?.number ?? (event?.issue?.pull_request ? event.issue.number : undefined);
  return typeof number === 'number' && Number.isInteger(number) ? number : undefined;
}
