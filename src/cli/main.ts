#!/usr/bin/env node
/**
 * Entry point of dist/cli.js: runs one command and sets the process exit code. Kept tiny and
 * free of static imports of the program, so that Node's compile cache is on before anything
 * else is compiled (Node 22.1+; a no-op before).
 */
import module from 'node:module';

(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
const { RunError, ExitCode } = await import('../run/exit-codes.js');
const { buildProgram } = await import('./program.js');

async function main(argv: string[]): Promise<void> {
  try {
    await (await buildProgram(argv)).parseAsync(argv);
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
