/**
 * Runs the command `argv` names through the full commander program: what dist/cli.js
 * (src/cli/main.ts) loads, as dist/chunks/run.js, for anything it does not answer itself.
 */
import { ExitCode, RunError } from '../run/exit-codes.js';
import { errorText } from '../run/error-text.js';
import { buildProgram } from './program.js';

/** Parses `argv` and runs its command; a failure is reported on stderr and sets the process exit code. */
export async function runProgram(argv: string[]): Promise<void> {
  try {
    await (await buildProgram(argv)).parseAsync(argv);
  } catch (error) {
    process.stderr.write(`error: ${errorText(error, [process.env.AUTOJOIN_API_KEY, process.env.VORTEX_API_KEY, process.env.AUTOJOIN_ACCESS_TOKEN])}\n`);
    process.exitCode = error instanceof RunError ? error.exitCode : ExitCode.error;
  }
}
