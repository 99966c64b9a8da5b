/**
 * The one logger of both front ends. stdout carries results and is never written here; every
 * line below goes to stderr (the CLI) or the runner's log (the action), through a sink.
 *
 * Levels: `quiet` shows warnings and errors only; `normal` adds notices, summaries and progress;
 * `verbose` (`--verbose`, `AUTOJOIN_LOG=debug`) adds one line per HTTP request.
 * Progress on a terminal is a live counter rewritten in place; elsewhere (CI logs) it is one
 * line every 10 seconds, so a long run is never silent and a log never fills with counters.
 * Every line is redacted (src/output/sinks.ts) before it reaches its sink.
 */
import type { RequestEvent } from '../service/trace.js';
import { groupedNumber } from '../text.js';
import { redactOutput } from './sinks.js';
import { bindRunValue, runValue, type RunBinding } from '../run-values.js';

export type LogLevel = 'quiet' | 'normal' | 'verbose';

/**
 * Progress of one phase: `update` after each item, `done` when the phase ends (even on error).
 * Both are plain functions (no `this`), so they can be passed on as callbacks.
 */
export interface Progress {
  update: (done: number, total: number) => void;
  done: () => void;
}

/** Every member is a plain function (no `this`), so `log().info` can be passed on as a callback. */
export interface Logger {
  readonly level: LogLevel;
  /** Notices and summaries (`note: …`, `wrote …`); hidden by --quiet. */
  info: (message: string) => void;
  /** `warning: …`; always shown. */
  warn: (message: string) => void;
  /** A line shown as is (diagnostics already carry their severity); always shown. */
  always: (message: string) => void;
  /** Detail for --verbose only. */
  debug: (message: string) => void;
  /** The service client's request hook: one line per HTTP attempt at --verbose. */
  request: (event: RequestEvent) => void;
  /** Progress of a phase such as `read` (`read 4,200/10,000 scopes`); hidden by --quiet. */
  progress: (verb: string) => Progress;
}

export interface LoggerOptions {
  level: LogLevel;
  /** Writes one finished line (no trailing newline). */
  write: (line: string) => void;
  /** Set on a terminal: rewrites the current line in place (for the live counter). */
  rewrite?: (text: string) => void;
  /** Off a terminal: milliseconds between two progress lines (default 10 s). */
  progressIntervalMs?: number;
}

const PROGRESS_INTERVAL_MS = 10_000;
const TTY_REFRESH_MS = 100;

/** @returns a logger writing through `options.write` (and `options.rewrite` on a terminal). */
export function createLogger(options: LoggerOptions): Logger {
  const { level } = options;
  // The log's sink: every line passes the redactor (a notice may quote what the service said).
  const write = (line: string): void => options.write(redactOutput(line));
  const shown = (needed: LogLevel): boolean => rank(level) >= rank(needed);
  return {
    level,
    info: (message) => shown('normal') && write(message),
    warn: (message) => write(`warning: ${message}`),
    always: (message) => write(message),
    debug: (message) => shown('verbose') && write(message),
    request: (event) => shown('verbose') && write(formatRequest(event)),
    progress: (verb) => {
      if (!shown('normal')) return SILENT_PROGRESS;
      return options.rewrite ? liveCounter(verb, options.rewrite) : periodicLines(verb, write, options.progressIntervalMs ?? PROGRESS_INTERVAL_MS);
    },
  };
}

function rank(level: LogLevel): number {
  return level === 'quiet' ? 0 : level === 'normal' ? 1 : 2;
}

const SILENT_PROGRESS: Progress = { update: () => undefined, done: () => undefined };

/** `GET /api/v1/… 200 12 ms` (+ ` retry N`); never a header, a body or the base URL's host. */
export function formatRequest(event: RequestEvent): string {
  const outcome = event.status !== undefined ? String(event.status) : `failed (${event.error ?? 'error'})`;
  const retry = event.retry > 0 ? ` retry ${event.retry}` : '';
  return `http: ${event.method} ${event.path} ${outcome} ${Math.round(event.ms)} ms${retry}`;
}

/** `read 4,200/10,000 scopes`, numbers grouped by thousands. */
export function progressText(verb: string, done: number, total: number): string {
  return `${verb} ${groupedNumber(done)}/${groupedNumber(total)} scopes`;
}

function liveCounter(verb: string, rewrite: (text: string) => void): Progress {
  let last = 0;
  let shown = false;
  return {
    update: (done, total) => {
      const now = Date.now();
      if (done < total && now - last < TTY_REFRESH_MS) return;
      last = now;
      shown = true;
      rewrite(progressText(verb, done, total));
    },
    done: () => {
      if (shown) rewrite('');
    },
  };
}

/** Off a terminal: the latest count, once per interval while the phase runs. */
function periodicLines(verb: string, write: (line: string) => void, intervalMs: number): Progress {
  let latest: { done: number; total: number } | undefined;
  const timer = setInterval(() => {
    if (latest) write(progressText(verb, latest.done, latest.total));
  }, intervalMs);
  timer.unref();
  return {
    update: (done, total) => {
      latest = { done, total };
    },
    done: () => clearInterval(timer),
  };
}

/**
 * The level from the flags and the environment: --quiet and --verbose win; else
 * `AUTOJOIN_LOG=debug` is verbose and `AUTOJOIN_LOG=quiet` quiet.
 */
export function logLevel(flags: { quiet?: boolean; verbose?: boolean }, env: NodeJS.ProcessEnv): LogLevel {
  if (flags.verbose) return 'verbose';
  if (flags.quiet) return 'quiet';
  const fromEnv = env.AUTOJOIN_LOG?.trim().toLowerCase();
  if (fromEnv === 'debug') return 'verbose';
  return fromEnv === 'quiet' ? 'quiet' : 'normal';
}

/**
 * Whether to colour a stream, as clig.dev and no-color.org / force-color.org say: `--no-color`
 * wins; then FORCE_COLOR (set and not `0`/`false`: on, even off a terminal; `0`/`false`: off);
 * then NO_COLOR (set and non-empty: off); then TERM=dumb (off); else only on a terminal.
 */
export function colorEnabled(options: { flag?: boolean; env: NodeJS.ProcessEnv; isTTY: boolean }): boolean {
  const { env } = options;
  if (options.flag === false) return false;
  if (env.FORCE_COLOR !== undefined) return !['0', 'false'].includes(env.FORCE_COLOR.trim().toLowerCase());
  if (env.NO_COLOR) return false;
  if (env.TERM === 'dumb') return false;
  return options.isTTY;
}

/** The current run's logger (src/run-values.ts); outside any run, the process's, on stderr. */
const runLogger = runValue<Logger>(createLogger({ level: 'normal', write: (line) => process.stderr.write(`${line}\n`) }));

/** The current run's logger (the CLI sets it up from its flags, the action from AUTOJOIN_LOG, as each enters the run). */
export function log(): Logger {
  return runLogger.get();
}

/** Replaces the current run's logger (outside any run, the process's). */
export function setLogger(logger: Logger): void {
  runLogger.set(logger);
}

/** @returns the binding of a run's logger, for `withRunScope` (./run-scope.ts) */
export function loggerBinding(logger: Logger): RunBinding {
  return bindRunValue(runLogger, logger);
}

/** A logger on process.stderr: a live counter when stderr is a terminal. */
export function stderrLogger(level: LogLevel): Logger {
  const stderr = process.stderr;
  let counterShown = false;
  const rewrite = stderr.isTTY
    ? (text: string) => {
        counterShown = text !== '';
        stderr.write(`\r\x1b[2K${text}`);
      }
    : undefined;
  // A line written while the live counter shows replaces it; the next update draws it again.
  const write = (line: string): void => {
    stderr.write(`${counterShown ? '\r\x1b[2K' : ''}${line}\n`);
    counterShown = false;
  };
  return createLogger({ level, write, rewrite });
}
