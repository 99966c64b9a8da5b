/**
 * Answers `--version`, `-V`, `--help`, `-h` and a bare `autojoin-sync` without loading commander
 * or any command: dist/cli.js carries the exact bytes the real program printed for each when the
 * build ran it (scripts/build.mjs), so the answer can never drift from commander's
 * (test/cli/start-path.e2e.test.ts compares them byte for byte). Anything else goes to commander.
 */

/** What the built program printed for each answer, byte for byte, at commander's default help width. */
export interface PrebuiltAnswers {
  /** `--version` / `-V` on stdout, exit 0. */
  version: string;
  /** `--help` / `-h` on stdout, exit 0. */
  help: string;
  /** No arguments at all: the help on stderr, exit 1. */
  usage: string;
}

/** The width commander wraps help to when the stream is not a terminal (and the width the build rendered at). */
const PREBUILT_HELP_WIDTH = 80;

/** A stream as far as the fast path needs it. */
interface OutputStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

/** Where an answer goes; the process's own streams in dist/cli.js. */
export interface FastPathStreams {
  stdout: OutputStream;
  stderr: OutputStream;
}

/**
 * Writes the prebuilt answer to `args` when there is one that commander would print identically.
 * Help wraps to a terminal's width, so on a terminal that is not 80 columns wide help is left to
 * commander; the version never wraps.
 * @param args the command-line arguments after the script
 * @returns the exit code when answered, or undefined when commander has to run
 */
export function answerFromPrebuilt(args: readonly string[], prebuilt: PrebuiltAnswers, streams: FastPathStreams): number | undefined {
  if (args.length > 1) return undefined;
  const [arg] = args;
  if (arg === '--version' || arg === '-V') return answer(streams.stdout, prebuilt.version, 0);
  if ((arg === '--help' || arg === '-h') && wrapsAsPrebuilt(streams.stdout)) return answer(streams.stdout, prebuilt.help, 0);
  if (arg === undefined && wrapsAsPrebuilt(streams.stderr)) return answer(streams.stderr, prebuilt.usage, 1);
  return undefined;
}

/** @returns whether commander would wrap help on `stream` at the width the build rendered it at. */
function wrapsAsPrebuilt(stream: OutputStream): boolean {
  return stream.isTTY !== true || (stream.columns ?? PREBUILT_HELP_WIDTH) === PREBUILT_HELP_WIDTH;
}

function answer(stream: OutputStream, text: string, exitCode: number): number {
  stream.write(text);
  return exitCode;
}
