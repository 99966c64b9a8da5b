/**
 * What the CLI shows on stderr besides its results: policy diagnostics (`file:line:col: …`),
 * notices, and the progress of a phase. Every line is escaped and redacted.
 */
import { formatDiagnostic } from '../render/diagnostics.js';
import type { Diagnostic } from '../policy/types.js';
import { warningLimiter, type WarningLimiter } from '../render/warning-limit.js';
import { escapeControls } from '../escape.js';
import { log, type Progress } from '../output/log.js';
import { redactOutput, writeStderr } from '../output/sinks.js';
import { shownHere } from '../render/shown-here.js';

/** Prints `file:line:col: severity: message`, one per line, on stderr; files relative to the working directory when `base` is given ({@link shownHere}). */
export function printDiagnostics(diagnostics: readonly Diagnostic[], base?: string): void {
  for (const diagnostic of shownHere(diagnostics, base)) writeStderr(`${escapeControls(formatDiagnostic(diagnostic))}\n`);
}

/**
 * Prints diagnostics as {@link printDiagnostics} does, in batches that wait for stderr to drain:
 * stderr to a pipe is asynchronous, and tens of thousands of warnings written at once would all
 * sit in its buffer.
 */
export async function printManyDiagnostics(diagnostics: readonly Diagnostic[], base?: string): Promise<void> {
  let batch = '';
  for (const diagnostic of runLimiter().take(shownHere(diagnostics, base))) {
    batch += `${escapeControls(formatDiagnostic(diagnostic))}\n`;
    if (batch.length >= BATCH_CHARS) {
      await writeDrained(process.stderr, batch);
      batch = '';
    }
  }
  if (batch !== '') await writeDrained(process.stderr, batch);
}

const BATCH_CHARS = 64 * 1024;

let limiter: WarningLimiter | undefined;

/** The run's one warning limiter (src/render/warning-limit.ts): --verbose shows every warning. */
function runLimiter(): WarningLimiter {
  limiter ??= warningLimiter(log().level === 'verbose');
  return limiter;
}

/** Prints the count of each kind of warning {@link printManyDiagnostics} left out ("and 197 more subdomain warnings; …"), once the diagnostics are all in. */
export function printWarningSummary(): void {
  for (const line of runLimiter().summary()) writeStderr(`${line}\n`);
  limiter = undefined;
}

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

/** Prints a notice (`notice: …`) on stderr, unless --quiet. */
export function printNotice(message: string): void {
  log().info(`notice: ${escapeControls(message)}`);
}

/** Progress of a phase on stderr (a live counter on a terminal, a line every 10 s elsewhere; none with --quiet). */
export function progressOf(verb: string): Progress {
  return log().progress(verb);
}
