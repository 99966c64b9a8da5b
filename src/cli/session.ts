/**
 * The connected session of plan, apply, import, who, adopt and presets, as the CLI opens it through
 * the command layer (src/commands/connection.ts): the embedded emulator offered when no service is
 * named, its notices to the logger, known errors as exit codes; and the check before connecting.
 */
import { startEmbeddedEmulator } from '../commands/embedded-emulator.js';
import { unreadablePathsRefusal, withConnection, type ConnectionRequest, type ConnectionView } from '../commands/connection.js';
import type { ServiceClient } from '../service/client.js';
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
    return await withConnection(cliConnection(settings), cliConnectionView(printClientNotice), (client, target) => work({ client, settings, target }));
  } catch (error) {
    throw toRunError(error);
  }
}

/**
 * Refuses paths that do not exist before anything connects, so a typo never starts (or writes
 * the state of) the embedded emulator. The same diagnostics and exit 1 as when the plan finds them.
 */
export async function refuseUnreadablePaths(settings: Pick<RunSettings, 'base' | 'paths'>): Promise<void> {
  const refusal = await unreadablePathsRefusal(settings);
  if (refusal === null) return;
  printDiagnostics(refusal.diagnostics, settings.base);
  throw new DiagnosticsError(refusal.message, refusal.diagnostics);
}

/** How the CLI connects: the embedded emulator when nothing is configured. */
export function cliConnection(settings: ConnectionRequest['settings']): ConnectionRequest {
  return { settings, startEmbedded: startEmbeddedEmulator };
}

/** Notices and --verbose request lines to the logger; the client's notices to `clientNotice`. */
export function cliConnectionView(clientNotice: (message: string) => void): ConnectionView {
  return {
    notice: (message) => log().info(escapeControls(message)),
    // One preamble line by default (`using …`: project file and service host); why, with --verbose.
    detail: (message) => log().debug(escapeControls(message)),
    clientNotice,
    onRequest: (event) => log().request(event),
    // The preamble names its files from where the command was typed (src/render/shown-here.ts).
    cwd: process.cwd(),
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
