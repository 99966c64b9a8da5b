/**
 * Runs the command `argv` names through the full commander program: what dist/cli.js
 * (src/cli/main.ts) loads, as dist/chunks/dispatch.js, for anything it does not answer itself.
 */
import { ExitCode, RunError } from '../output/exit-codes.js';
import { errorText } from '../output/error-text.js';
import { writeStderr } from '../output/sinks.js';
import { withProcessRunScope, withRunScope } from '../output/run-scope.js';
import { configuredSecrets } from '../run/secrets.js';
import { buildProgram } from './program.js';
import { cliWording } from './cli-wording.js';

/** How {@link runProgram} runs. */
export interface ProgramPlace {
  /**
   * The command is all the process runs (dist/cli.js, ./main.ts): its run's values are the
   * process's (src/output/run-scope.ts). Left out, as in-process callers do, the command runs
   * in a run of its own.
   */
  ownsProcess?: boolean;
}

/** Parses `argv` and runs its command; a failure is reported on stderr and sets the process exit code. */
export async function runProgram(argv: string[], place: ProgramPlace = {}): Promise<void> {
  // A run of its own (src/output/run-scope.ts): before anything can print, every output sink hides
  // the secrets of the environment, and every message that names a setting names its flag
  // (src/hint.ts). The command's flags then set this run's logger (./options.ts) and its settings
  // this run's project file (src/run/settings.ts).
  const enter = place.ownsProcess ? withProcessRunScope : withRunScope;
  await enter({ secrets: configuredSecrets(process.env).map((secret) => secret.value), wording: cliWording }, async () => {
    try {
      await (await buildProgram(argv)).parseAsync(argv);
    } catch (error) {
      writeStderr(`error: ${errorText(error)}\n`);
      process.exitCode = error instanceof RunError ? error.exitCode : ExitCode.error;
    }
  });
}
