/**
 * Opening the service client for a request, for both front ends: the service the run context
 * names, or, when it names none, the embedded emulator of a front end that offers one (the CLI
 * passes src/commands/embedded-emulator.ts; the action, which never runs one, does not, so its
 * bundle carries no emulator and a run without a base URL is refused). Its notices go to the
 * front end's view; the client and the connection are always closed. Before connecting, paths
 * that do not exist refuse the run, so a typo never starts (or writes the state of) the embedded
 * emulator.
 */
import { withServiceClient, type ConnectSettings, type EmbeddedStarter } from '../connect/connect.js';
import { NoPoliciesError, unreadablePaths } from '../policy/index.js';
import type { Diagnostic } from '../policy/types.js';
import type { RunContext } from '../run/settings.js';
import type { ServiceClient } from '../service/client.js';
import type { RequestHook } from '../service/trace.js';

/** What a request connects with. */
export interface ConnectionRequest {
  /** The run context's service settings (base URL, credentials, timeouts, CI). */
  settings: ConnectSettings;
  /** Starts the embedded emulator when no service is named; left out, such a run is refused. */
  startEmbedded?: EmbeddedStarter;
  /** Where else the front end takes a base URL from, named when none is set (e.g. the action's input). */
  baseUrlHint?: string;
}

/** Where connecting's words go. */
export interface ConnectionView {
  /** The one `using …` line, and the target's notice. */
  notice(message: string): void;
  /** The detail behind the `using …` line (why the embedded emulator); default: {@link notice}. */
  detail?(message: string): void;
  /** The client's notices (e.g. that a listing call is deprecated). */
  clientNotice(message: string): void;
  /** One event per HTTP attempt (e.g. --verbose request lines). */
  onRequest?: RequestHook;
  /** Where the reader is (the CLI's working directory): the preamble names its files from there; default: the run's base. */
  cwd?: string;
}

/**
 * Connects, runs `work` with the client and where plans say they were made (the base URL, or
 * `embedded`), and always closes client and connection (the embedded emulator flushes its state).
 */
export function withConnection<T>(request: ConnectionRequest, view: ConnectionView, work: (client: ServiceClient, target: string) => Promise<T>): Promise<T> {
  const options = {
    settings: request.settings,
    startEmbedded: request.startEmbedded,
    baseUrlHint: request.baseUrlHint,
    notice: (message: string) => view.notice(message),
    detail: view.detail && ((message: string) => view.detail?.(message)),
    onRequest: view.onRequest,
    ...(view.cwd === undefined ? {} : { cwd: view.cwd }),
  };
  return withServiceClient(options, (message) => view.clientNotice(message), (client, connection) => work(client, connection.target));
}

/** Paths of a request that do not exist: their diagnostics, and the refusal in NoPoliciesError's words (as when the plan finds them). */
export interface UnreadablePaths {
  diagnostics: Diagnostic[];
  message: string;
}

/** @returns the request's paths that do not exist, refused before anything connects; null when every path exists */
export async function unreadablePathsRefusal(context: Pick<RunContext, 'base' | 'paths'>): Promise<UnreadablePaths | null> {
  const diagnostics = await unreadablePaths(context.paths, context.base);
  if (diagnostics.length === 0) return null;
  // As the README words it: `no policy files (…) under polices; nothing was done. …`
  return { diagnostics, message: new NoPoliciesError([...new Set(diagnostics.map((d) => d.file))], false).message };
}
