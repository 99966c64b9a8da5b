/**
 * Runs the command `argv` names through the full commander program: what dist/cli.js
 * (src/cli/main.ts) loads, as dist/chunks/dispatch.js, for anything it does not answer itself.
 */
import { ExitCode, RunError } from '../output/exit-codes.js';
import { errorText } from '../output/error-text.js';
import { writeStderr } from '../output/sinks.js';
import { withRunScope } from '../output/run-scope.js';
import { configuredSecrets } from '../run/secrets.js';
import { buildProgram } from './program.js';
import { cliWording } from './cli-wording.js';

/** Parses `argv` and runs its command; a failure is reported on stderr and sets the process exit code. */
export async function runProgram(argv: string[]): Promise<void> {
  // A run of its own (src/output/run-scope.ts): before anything can print, every output sink hides
  // the secrets of the environment, and every message that names a setting names its flag
  // (src/hint.ts). The command's flags then set this run's logger (./options.ts) and its settings
  // this run's project file (src/run/settings.ts).
  await withRunScope({ secrets: configuredSecrets(process.env).map((secret) => secret.value), wording: cliWording }, async () => {
    try {
      await (await buildProgram(argv)).parseAsync(argv);
    } catch (error) {
      writeStderr(`error: ${errorText(error)}\n`);
      process.exitCode = error instanceof RunError ? error.exitCode : ExitCode.error;
    }
  });
}
