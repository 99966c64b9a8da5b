#!/usr/bin/env node
/**
 * Entry point of dist/cli.js, built as one file apart from the program: `--version`, `--help` and
 * a bare call are answered from the texts the build embedded (./fast-path.ts) without loading any
 * other module; anything else turns Node's compile cache on (Node 22.1+; a no-op before) and only
 * then loads the program, so that all of it is compiled through the cache.
 */
import module from 'node:module';
import v8 from 'node:v8';
import { answerFromPrebuilt, type PrebuiltAnswers } from './fast-path.js';

/** Set by scripts/build.mjs to what the built program printed (PrebuiltAnswers as JSON); undefined when run from source. */
declare const AUTOJOIN_PREBUILT: string | undefined;

const prebuilt = typeof AUTOJOIN_PREBUILT === 'string' ? (JSON.parse(AUTOJOIN_PREBUILT) as PrebuiltAnswers) : undefined;
const answered = prebuilt && answerFromPrebuilt(process.argv.slice(2), prebuilt, process);
if (answered !== undefined) process.exitCode = answered;
else await runProgram();

/** Loads the program (./dispatch.ts, built as dist/chunks/dispatch.js) and runs the command `process.argv` names. */
async function runProgram(): Promise<void> {
  // The cache lives under the OS temp dir (or NODE_COMPILE_CACHE), never in the repository.
  (module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
  // A run holds little live data (a few hundred bytes per scope) but churns through every listing
  // page; V8's default heap growth would let that garbage pile up into hundreds of MB at 30,000
  // scopes. Sizing the heap for memory keeps peak RSS nearly flat in the number of scopes
  // (bench/memory.ts); the flag is read as the heap grows, so setting it here still takes effect.
  // It costs CPU, so the emulator (a server whose memory is its data) runs without it.
  // The young generation stays at its first size (it would double up to 16 MiB a semi-space):
  // what a run allocates is short-lived pages and strings, and a small nursery holds it as well.
  // WebAssembly (undici's HTTP parser) stays on the baseline compiler: optimizing its large parse
  // function took 30 MiB for a moment early in every read, to speed up parsing a few hundred
  // bytes of response head a request.
  if (!process.argv.slice(2).includes('emulator')) {
    for (const flag of ['--optimize-for-size', '--semi-space-growth-factor=1', '--liftoff-only']) v8.setFlagsFromString(flag);
  }
  await (await import('./dispatch.js')).runProgram(process.argv, { ownsProcess: true });
}
