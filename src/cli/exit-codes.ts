/** Exit codes shared by every command (design.md). */
export const ExitCode = {
  ok: 0,
  error: 1,
  changesPending: 2,
  unsafe: 3,
  stalePlan: 4,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** An error that ends a command with a given exit code and a message for stderr. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCodeValue = ExitCode.error,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
