/**
 * `autojoin-sync plan`: what would change, in text, markdown or JSON, without writing anything.
 * Also home of the few helpers `apply` and `import` share with it (session, progress, errors).
 */
import { writeFile } from 'node:fs/promises';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { connect } from '../connect.js';
import { createClient, type ServiceClient } from '../../service/client.js';
import { formatDiagnostic, loadProjectConfig, PROJECT_FILE } from '../../policy/index.js';
import { findViolations, serializePlan, UnsafePlanError, type Plan, type SafetyLimits } from '../../plan/index.js';
import { renderJson, renderMarkdown, renderText } from '../../render/index.js';
import { makePlan, StalePlanError } from '../../reconcile/index.js';
import type { ListingKind } from '../../service/types.js';
import type { Diagnostic, LoadResult, ProjectConfig } from '../../policy/types.js';
import { CliError, ExitCode } from '../exit-codes.js';

type Format = 'text' | 'markdown' | 'json';

interface PlanFlags {
  out?: string;
  format: Format;
  detailedExitcode?: boolean;
  pruneFrom?: string;
  shard?: string;
  listing: ListingKind;
  concurrency: number;
}

/** Registers `autojoin-sync plan`. */
export function register(program: Command): void {
  program
    .command('plan')
    .summary('show what apply would change (writes nothing)')
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
  });
}

/** Renders a plan for stdout in the chosen format; colour only for a terminal without NO_COLOR. */
export function renderPlan(plan: Plan, format: Format = 'text'): string {
  const text =
    format === 'json' ? renderJson(plan) : format === 'markdown' ? renderMarkdown(plan, {}) : renderText(plan, { color: useColor() });
  return text.endsWith('\n') ? text : `${text}\n`;
}

/** @returns true when stdout is a terminal and NO_COLOR is unset or empty. */
export function useColor(): boolean {
  return Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
}

/** A plan a later apply would refuse is worth knowing at plan time; it is only a notice here. */
function warnIfUnsafe(plan: Plan, limits: SafetyLimits): void {
  for (const violation of findViolations(plan.changes, limits)) {
    process.stderr.write(`warning: apply would refuse this plan: ${violation.message}\n`);
  }
}

// ---- shared by plan, apply and import -------------------------------------------------

/** What a command talks to: the service client and the project file. */
export interface Session {
  client: ServiceClient;
  project: ProjectConfig;
}

/**
 * Connects (base URL or embedded emulator), runs `work`, and always closes client and
 * connection. Known errors become CliErrors with their exit code.
 */
export async function withSession<T>(cwd: string, paths: string[], work: (session: Session) => Promise<T>): Promise<T> {
  const project = await projectOrFail(cwd, paths);
  const connection = await connect({ cwd, baseUrl: project.baseUrl });
  const client = createClient({
    baseUrl: connection.baseUrl,
    apiKey: connection.apiKey,
    onNotice: (message) => process.stderr.write(`notice: ${message}\n`),
  });
  try {
    return await work({ client, project });
  } catch (error) {
    throw toCliError(error);
  } finally {
    await client.close();
    await connection.close();
  }
}

/** The project file's settings; its errors end the command (exit 1) before anything is read. */
async function projectOrFail(cwd: string, paths: string[]): Promise<ProjectConfig> {
  const { config, diagnostics } = await loadProjectConfig(cwd, paths);
  printDiagnostics(diagnostics);
  if (diagnostics.some((d) => d.severity === 'error')) throw new CliError(`${PROJECT_FILE} is invalid (see above)`);
  return config;
}

/** Maps the orchestrator's refusals onto their exit codes; anything else stays as it is. */
export function toCliError(error: unknown): unknown {
  if (error instanceof UnsafePlanError) return new CliError(`refused by a safety limit: ${error.message}`, ExitCode.unsafe);
  if (error instanceof StalePlanError) return new CliError(error.message, ExitCode.stalePlan);
  return error;
}

/** Makes the plan, printing diagnostics to stderr; invalid policy files end the command (exit 1). */
export async function planOrFail(options: {
  paths: string[];
  cwd: string;
  client: ServiceClient;
  project: ProjectConfig;
  flags: { pruneFrom?: string; shard?: string; listing: ListingKind; concurrency: number };
  label: string;
}): Promise<Plan> {
  const { flags } = options;
  const progress = progressOnTty(options.label);
  const { plan, load } = await makePlan({
    paths: options.paths,
    cwd: options.cwd,
    client: options.client,
    project: options.project,
    listing: flags.listing,
    concurrency: flags.concurrency,
    pruneFrom: flags.pruneFrom,
    shard: flags.shard,
    onProgress: progress.update,
  }).finally(progress.done);
  printDiagnostics(load.diagnostics);
  if (!plan) throw new CliError(invalidFilesMessage(load));
  return plan;
}

function invalidFilesMessage(load: LoadResult): string {
  const errors = load.diagnostics.filter((d) => d.severity === 'error').length;
  return `${errors} error${errors === 1 ? '' : 's'} in the policy files; nothing was planned (see above, or run \`autojoin-sync validate\`)`;
}

/** Prints `file:line:col: severity: message`, one per line, on stderr. */
export function printDiagnostics(diagnostics: readonly Diagnostic[]): void {
  for (const diagnostic of diagnostics) process.stderr.write(`${formatDiagnostic(diagnostic)}\n`);
}

/** Limits for apply: --max-removals beats the project file's; the percentage comes from the file. */
export function limitsFrom(project: ProjectConfig, flags: { maxRemovals?: number; allowEmpty?: boolean }): SafetyLimits {
  return {
    maxRemovals: flags.maxRemovals ?? project.safety?.maxRemovals,
    maxRemovalPercent: project.safety?.maxRemovalPercent,
    allowEmpty: flags.allowEmpty ?? false,
  };
}

/** `label done/total` on one rewritten stderr line, only when stderr is a terminal. */
export function progressOnTty(label: string): { update?: (done: number, total: number) => void; done: () => void } {
  if (!process.stderr.isTTY) return { done: () => undefined };
  let last = 0;
  let shown = false;
  return {
    update: (done, total) => {
      const now = Date.now();
      if (done < total && now - last < 100) return;
      last = now;
      shown = true;
      process.stderr.write(`\r\x1b[2K${label} ${done}/${total}`);
    },
    done: () => {
      if (shown) process.stderr.write('\r\x1b[2K');
    },
  };
}

function formatOption(): Option {
  return new Option('--format <format>', 'output format').choices(['text', 'markdown', 'json']).default('text');
}

/** `--listing by-group|by-scope`: which listing call reads a scope's invitations. */
export function listingOption(): Option {
  return new Option('--listing <kind>', 'listing call: by-group (call 1, deprecated) or by-scope (call 1b)')
    .choices(['by-group', 'by-scope'])
    .default('by-group');
}

/** `--concurrency N`: requests in flight at once (1–256). */
export function concurrencyOption(): Option {
  return new Option('--concurrency <n>', 'requests in flight at once').default(16).argParser(parseConcurrency);
}

function parseConcurrency(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value > 256) {
    throw new InvalidArgumentError('expected a whole number from 1 to 256.');
  }
  return value;
}
