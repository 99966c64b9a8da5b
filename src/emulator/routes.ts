/**
 * The route table of the calls and how a request path finds its route. Paths are matched on
 * raw segments and each parameter is percent-decoded exactly once, so a scope `a/b` sent as
 * `a%2Fb` (or `../x` as `..%2Fx`) stays one segment and never changes the route.
 */
import type { IncomingMessage } from 'node:http';
import type { AuthScheme } from './auth.js';
import { HttpError, type Reply } from './http-io.js';
import type { EmulatorData, PostMetadataMode, StartMode } from './types.js';
import type { ScopeKey } from '../scope.js';

/** What a handler sees of the emulator. */
export interface EmulatorState {
  data: EmulatorData;
  startMode: StartMode;
  domainTargets: boolean;
  unpaginated: boolean;
  byGroup: boolean;
  groups: boolean;
  postMetadata: PostMetadataMode;
  now(): Date;
}

export interface HandlerContext {
  params: Record<string, string>;
  query: URLSearchParams;
  request: IncomingMessage;
  state: EmulatorState;
}

/** A handler's result: the reply, and the state change to make before it is sent (if any). */
export interface Handled {
  reply: Reply;
  change?: StateChange;
}

/**
 * A write's change to the state, made (and journaled) only when its answer is due. It replaces
 * the records of `keys` with new ones and never edits a record in place, so the server can put
 * the old ones back when the journal cannot record it (src/emulator/server.ts).
 */
export interface StateChange {
  /** The scopes it changes: what the journal records. */
  keys: ScopeKey[];
  apply(): void;
}

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  /** e.g. '/api/v1/invitations/by-scope/:scopeType/:scope' */
  pattern: string;
  auth: AuthScheme;
  handle(context: HandlerContext): Handled | Promise<Handled>;
}

export interface RouteMatch { route: Route; params: Record<string, string> }

/** @returns the route for a method and raw path; throws 404 (no such path) or 405 (path known, method not). */
export function findRoute(routes: readonly Route[], method: string, rawPath: string): RouteMatch {
  const segments = rawPath.split('/');
  const matches = routes
    .map((route) => ({ route, params: matchPattern(route.pattern, segments) }))
    .filter((match): match is RouteMatch => match.params !== null);
  if (matches.length === 0) throw new HttpError(404, `Cannot ${method} ${rawPath}`);
  const match = matches.find((candidate) => candidate.route.method === method);
  if (!match) {
    const allow = [...new Set(matches.map((candidate) => candidate.route.method))].join(', ');
    throw new HttpError(405, `Method ${method} is not allowed on ${rawPath}`, { allow });
  }
  return match;
}

function matchPattern(pattern: string, segments: readonly string[]): Record<string, string> | null {
  const parts = pattern.split('/');
  if (parts.length !== segments.length) return null;
  const fits = parts.every((part, i) => (part.startsWith(':') ? segments[i] !== '' : part === segments[i]));
  if (!fits) return null;
  const params: Record<string, string> = {};
  for (const [i, part] of parts.entries()) {
    if (part.startsWith(':')) params[part.slice(1)] = decodeSegment(segments[i] as string);
  }
  return params;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HttpError(400, `Path segment "${segment}" is not valid percent-encoding`);
  }
}
