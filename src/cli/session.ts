/**
 * What plan, apply and import share: a session (project file, connection, client, always
 * closed), making a plan with diagnostics on stderr, and progress on a terminal.
 */
import { withServiceClient } from '../run/connect.js';
import { startEmbeddedEmulator } from '../run/embedded.js';
import type { ServiceClient } from '../service/client.js';
import { formatDiagnostic } from '../policy/index.js';
import { loadProjectOrFail } from '../run/project.js';
import type { Plan } from '../plan/index.js';
import { makePlan, nothingPlannedMessage } from '../reconcile/index.js';
import type { ListingKind } from '../service/types.js';
import type { Diagnostic, ProjectConfig } from '../policy/types.js';
import { RunError, toRunError } from '../run/exit-codes.js';

/** What a command talks to: the service client and the project file. */
export interface Session {
  client: ServiceClient;
  project: ProjectConfig;
}

/**
 * Connects (base URL or embedded emulator), runs `work`, and always closes client and
 * connection. Known errors become RunErrors with their exit code.
 * @param connections the pool size, i.e. the command's `--concurrency` (default 16)
 */
export async function withSession<T>(cwd: string, paths: string[], work: (session: Session) => Promise<T>, connections?: number): Promise<T> {
  const project = await loadProjectOrFail(cwd, paths, printDiagnostics);
  try {
    return await withServiceClient({ cwd, baseUrl: project.baseUrl, startEmbedded: startEmbeddedEmulator, connections }, printNotice, (client) => work({ client, project }));
  } catch (error) {
    throw toRunError(error);
  }
}

/** Prints a notice of the service client (`notice: …`) on stderr. */
export function printNotice(message: string): void {
  process.stderr.write(`notice: ${message}\n`);
}

/** Makes the plan, printing diagnostics to stderr; invalid policy files end the command (exit 1). */
export async function planOrFail(options: {
  paths: string[];
  cwd: string;
  client: ServiceClient;
  project: ProjectConfig;
  flags: { pruneFrom?: string; shard?: string; listing: ListingKind; concurrency: number; changedSince?: string };
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
    changedSince: flags.changedSince,
    onNotice: printNotice,
  }).finally(progress.done);
  printDiagnostics(load.diagnostics);
  if (!plan) throw new RunError(`${nothingPlannedMessage(load)} (see above, or run \`autojoin-sync validate\`)`);
  return plan;
}

/** Prints `file:line:col: severity: message`, one per line, on stderr. */
export function printDiagnostics(diagnostics: readonly Diagnostic[]): void {
  for (const diagnostic of diagnostics) process.stderr.write(`${formatDiagnostic(diagnostic)}\n`);
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

/** @returns true when stdout is a terminal and NO_COLOR is unset or empty. */
export function useColor(): boolean {
  return Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
}
