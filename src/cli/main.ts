import { buildProgram } from './program.js';
import { RunError, ExitCode } from '../run/exit-codes.js';

/** Entry point of dist/cli.js: runs one command and sets the process exit code. */
async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (error) {
    process.exitCode = reportError(error);
  }
}

function reportError(error: unknown): number {
  if (error instanceof RunError) {
    process.stderr.write(`error: ${error.message}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`error: ${message}\n`);
  return ExitCode.error;
}

await main(process.argv);
