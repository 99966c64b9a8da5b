/**
 * The connected session of plan, apply, import, who and adopt: the service client (base URL or
 * embedded emulator), always closed, and the check that comes before connecting.
 */
import { withServiceClient, type ConnectOptions } from '../connect/connect.js';
import { startEmbeddedEmulator } from '../connect/embedded.js';
import type { ServiceClient } from '../service/client.js';
import { NoPoliciesError, unreadablePaths } from '../policy/index.js';
import { toRunError } from '../output/exit-codes.js';
import { escapeControls } from '../escape.js';
import type { RunSettings } from '../run/settings.js';
import { log } from '../output/log.js';
import { DiagnosticsError } from './json-result.js';
import { printDiagnostics, printNotice } from './print.js';

/** What a command talks to: the service client, and the run's settings. */
export interface Session {
  client: ServiceClient;
  settings: RunSettings;
  /** Where plans say they were made: the base URL, or `embedded`. */
  target: string;
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
  printDiagnostics(diagnostics, settings.base);
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

/**
 * The client's notices: a deprecation (the default by-group listing has one, so every run would
 * print it before the plan) only with --verbose; anything else as {@link printNotice}.
 */
function printClientNotice(message: string): void {
  if (/\bdeprecated\b/.test(message)) log().debug(`notice: ${escapeControls(message)}`);
  else printNotice(message);
}
