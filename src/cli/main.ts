import { buildProgram } from './program.js';
import { RunError, ExitCode } from '../run/exit-codes.js';
import { errorText } from '../run/error-text.js';

/** Entry point of dist/cli.js: runs one command and sets the process exit code. */
async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (error) {
    process.exitCode = reportError(error);
  }
}

function reportError(error: unknown): number {
  process.stderr.write(`error: ${errorText(error, [process.env.AUTOJOIN_API_KEY, process.env.AUTOJOIN_ACCESS_TOKEN])}\n`);
  return error instanceof RunError ? error.exitCode : ExitCode.error;
}

await main(process.argv);
