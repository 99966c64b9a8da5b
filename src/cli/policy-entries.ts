/** What `who` and `inventory` share on the CLI: the policy files' errors on stderr, ending the command. */
import type { Diagnostic } from '../policy/types.js';
import { RunError } from '../output/exit-codes.js';
import { printDiagnostics } from './print.js';

/**
 * Prints the errors of a listing's policy files on stderr and ends the command (exit 1) when there is one.
 * @param base the run's base: each file is named from the working directory (src/render/shown-here.ts)
 */
export function failOnPolicyErrors(errors: readonly Diagnostic[], base: string): void {
  printDiagnostics(errors, base);
  if (errors.length > 0) throw new RunError(`${errors.length} ${errors.length === 1 ? 'error' : 'errors'} in the policy files (see above, or run \`autojoin-sync validate\`)`);
}
