/**
 * What plan, apply and import share: the run's settings (resolved once), a session (connection,
 * client, always closed), making a plan with diagnostics on stderr, and progress on a terminal.
 */
import { withServiceClient, type ConnectOptions } from '../run/connect.js';
import { startEmbeddedEmulator } from '../run/embedded.js';
import type { ServiceClient } from '../service/client.js';
import { formatDiagnostic, NoPoliciesError, unreadablePaths } from '../policy/index.js';
import { DiagnosticsError } from './json-result.js';
import type { Plan } from '../plan/index.js';
import { makePlan, nothingPlannedMessage } from '../reconcile/index.js';
import type { Diagnostic } from '../policy/types.js';
import { RunError, toRunError } from '../run/exit-codes.js';
import { escapeControls } from '../render/escape.js';
import { resolveSettings, type RunSettings, type SettingFlags } from '../run/settings.js';
import { log, type Progress } from '../run/log.js';
import { configuredSecrets } from '../run/secrets.js';
import { dnsBeforeRead, dnsSettings } from '../run/dns.js';
import { dnsRequest, type DnsFlags } from './options.js';
import { redactOutput, writeStderr } from '../run/output.js';
import { markEchoedSecrets } from '../run/redacted-plan.js';
import { parseTakeOwnership } from '../reconcile/ownership.js';
import type { ScopeKey } from '../scope.js';

/** What a command talks to: the service client, and the run's settings. */
export interface Session {
  client: ServiceClient;
  settings: RunSettings;
  /** Where plans say they were made: the base URL, or `embedded`. */
  target: string;
}

/**
 * Resolves the run's settings once, from the command's flags, the environment and the project
 * file found from `paths` (src/run/settings.ts); the project file's problems go to stderr.
 * @throws RunError when the project file has an error or a setting is invalid
 */
export function cliSettings(paths: readonly string[], flags: SettingFlags): Promise<RunSettings> {
  return resolveSettings({ cwd: process.cwd(), paths, flags: settingFlagsOf(flags), env: process.env, report: printDiagnostics });
}

/** The flags a command was given that are settings (commander also hands over its own). */
function settingFlagsOf(flags: SettingFlags): SettingFlags {
  const { read, listing, concurrency, requestTimeout, emulator, maxRemovals, maxRemovalPercent, allowEmpty, prune } = flags;
  return { read, listing, concurrency, requestTimeout, emulator, maxRemovals, maxRemovalPercent, allowEmpty, prune };
}

/**
 * Connects (base URL or embedded emulator), runs `work`, and always closes client and
 * connection. Known errors become RunErrors with their exit code.
 */
export async function withSession<T>(settings: RunSettings, work: (session: Session) => Promise<T>): Promise<T> {
  try {
    return await withServiceClient(connectOptions(settings), printClientNotice, (client, { target }) => work({ client, settings, target }));
  } catch (error) {
    throw toRunError(error);
  }
}

/**
 * Refuses paths that do not exist before anything connects, so a typo never starts (or writes
 * the state of) the embedded emulator. The same diagnostics and exit 1 as when the plan finds them.
 */
export async function refuseUnreadablePaths(settings: Pick<RunSettings, 'base' | 'paths'>): Promise<void> {
  const diagnostics = await unreadablePaths(settings.paths, settings.base);
  if (diagnostics.length === 0) return;
  printDiagnostics(diagnostics);
  // As the README words it: `no policy files (…) under polices; nothing was done. …`
  throw new DiagnosticsError(new NoPoliciesError([...new Set(diagnostics.map((d) => d.file))], false).message, diagnostics);
}

/** How the CLI connects: the embedded emulator when nothing is configured; notices and --verbose request lines to the logger. */
export function connectOptions(settings: ConnectOptions['settings']): ConnectOptions {
  return {
    settings,
    startEmbedded: startEmbeddedEmulator,
    notice: (message) => log().info(escapeControls(message)),
    // One preamble line by default (`using …`: project file and service host); why, with --verbose.
    detail: (message) => log().debug(escapeControls(message)),
    onRequest: (event) => log().request(event),
  };
}

/** Prints a notice of the service client (`notice: …`) on stderr, unless --quiet. */
export function printNotice(message: string): void {
  log().info(`notice: ${escapeControls(message)}`);
}

/**
 * The client's notices: a deprecation (the default by-group listing has one, so every run would
 * print it before the plan) only with --verbose; anything else as {@link printNotice}.
 */
function printClientNotice(message: string): void {
  if (/\bdeprecated\b/.test(message)) log().debug(`notice: ${escapeControls(message)}`);
  else printNotice(message);
}

/** The flags that narrow a run to some scopes: --shard, --scope, --exclude-scope, and --replace. */
export interface TargetFlags {
  shard?: string;
  scope?: string[];
  excludeScope?: string[];
  /** --replace: scopes written again even when nothing differs. */
  replace?: string[];
}

/** Makes the plan, printing diagnostics to stderr; invalid policy files end the command (exit 1). */
export async function planOrFail(options: {
  client: ServiceClient;
  settings: RunSettings;
  target: string;
  flags: TargetFlags & { pruneFrom?: string; allowNoPolicies?: boolean; changedSince?: string; takeOwnership?: string[] } & DnsFlags;
  /** Progress verb of the live-state read, e.g. `read` (`read 4,200/10,000 scopes`). */
  label: string;
}): Promise<Plan> {
  const { flags } = options;
  const dns = await dnsSettings(dnsRequest(flags), options.settings.project);
  const progress = progressOf(options.label);
  const { plan, load } = await makePlan({
    settings: options.settings,
    client: options.client,
    pruneFrom: flags.pruneFrom,
    allowNoPolicies: flags.allowNoPolicies,
    target: options.target,
    shard: flags.shard,
    targets: { scope: flags.scope, excludeScope: flags.excludeScope },
    replace: flags.replace,
    onProgress: progress.update,
    changedSince: flags.changedSince,
    onNotice: printNotice,
    secrets: configuredSecrets(process.env),
    takeOwnership: takeOwnershipOf(flags),
    // Printed as soon as the policies are loaded, before the read: never held through it.
    onDiagnostics: printManyDiagnostics,
    ...dnsBeforeRead(dns, options.settings.base),
  }).finally(progress.done);
  if (!plan) throw new DiagnosticsError(`${nothingPlannedMessage(load)} (see above, or run \`autojoin-sync validate\`)`, load.diagnostics);
  return markEchoedSecrets(plan);
}

/** @returns the scopes of --take-ownership (each TYPE/ID; commas separate several too). */
export function takeOwnershipOf(flags: { takeOwnership?: string[] }): Set<ScopeKey> {
  try {
    return parseTakeOwnership(flags.takeOwnership ?? []);
  } catch (error) {
    throw new RunError((error as Error).message);
  }
}

/** Prints `file:line:col: severity: message`, one per line, on stderr. */
export function printDiagnostics(diagnostics: readonly Diagnostic[]): void {
  for (const diagnostic of diagnostics) writeStderr(`${escapeControls(formatDiagnostic(diagnostic))}\n`);
}

/**
 * Prints diagnostics as {@link printDiagnostics} does, in batches that wait for stderr to drain:
 * stderr to a pipe is asynchronous, and tens of thousands of warnings written at once would all
 * sit in its buffer.
 */
export async function printManyDiagnostics(diagnostics: readonly Diagnostic[]): Promise<void> {
  let batch = '';
  for (const diagnostic of diagnostics) {
    batch += `${escapeControls(formatDiagnostic(diagnostic))}\n`;
    if (batch.length >= BATCH_CHARS) {
      await writeDrained(process.stderr, batch);
      batch = '';
    }
  }
  if (batch !== '') await writeDrained(process.stderr, batch);
}

const BATCH_CHARS = 64 * 1024;

/** Writes `text`; when the stream's buffer is full, resolves once it drains (or closes or fails: nothing then waits for it). */
function writeDrained(stream: NodeJS.WritableStream, text: string): Promise<void> {
  if (stream.write(redactOutput(text))) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      stream.off('drain', done).off('close', done).off('error', done);
      resolve();
    };
    stream.on('drain', done).on('close', done).on('error', done);
  });
}

/** Progress of a phase on stderr (a live counter on a terminal, a line every 10 s elsewhere; none with --quiet). */
export function progressOf(verb: string): Progress {
  return log().progress(verb);
}

export { useColor } from './options.js';
