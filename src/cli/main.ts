#!/usr/bin/env node
/**
 * Entry point of dist/cli.js: runs one command and sets the process exit code. Kept tiny and
 * free of static imports of the program, so that Node's compile cache is on before anything
 * else is compiled (Node 22.1+; a no-op before).
 */
import module from 'node:module';
import v8 from 'node:v8';

(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
// A run holds little live data (a few hundred bytes per scope) but churns through every listing
// page; V8's default heap growth would let that garbage pile up into hundreds of MB at 30,000
// scopes. Sizing the heap for memory keeps peak RSS nearly flat in the number of scopes
// (bench/memory.ts); the flag is read as the heap grows, so setting it here still takes effect.
// It costs CPU, so the emulator (a server whose memory is its data) runs without it.
if (!process.argv.slice(2).includes('emulator')) v8.setFlagsFromString('--optimize-for-size');
const { RunError, ExitCode } = await import('../run/exit-codes.js');
const { buildProgram } = await import('./program.js');
const { errorText } = await import('../run/error-text.js');

async function main(argv: string[]): Promise<void> {
  try {
    await (await buildProgram(argv)).parseAsync(argv);
  } catch (error) {
    process.exitCode = reportError(error);
  }
}

function reportError(error: unknown): number {
  process.stderr.write(`error: ${errorText(error, [process.env.AUTOJOIN_API_KEY, process.env.AUTOJOIN_ACCESS_TOKEN])}\n`);
  return error instanceof RunError ? error.exitCode : ExitCode.error;
}

await main(process.argv);
