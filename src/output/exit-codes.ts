import { UnsafePlanError } from '../plan/safety.js';
import { StalePlanError } from '../plan/refusals.js';

/** Exit codes shared by every command (docs/cli.md, "Exit codes"). */
export const ExitCode = {
  ok: 0,
  error: 1,
  changesPending: 2,
  unsafe: 3,
  stalePlan: 4,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** An error that ends a command with a given exit code and a message for stderr. */
export class RunError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCodeValue = ExitCode.error,
  ) {
    super(message);
    this.name = 'RunError';
  }
}

/** Maps the orchestrator's refusals onto their exit codes; anything else stays as it is. */
export function toRunError(error: unknown): unknown {
  // The original stays the cause: `--format json` reports each limit of an UnsafePlanError.
  if (error instanceof UnsafePlanError) return Object.assign(new RunError(`refused by a safety limit: ${error.message}`, ExitCode.unsafe), { cause: error });
  if (error instanceof StalePlanError) return Object.assign(new RunError(error.message, ExitCode.stalePlan), { cause: error });
  return error;
}
