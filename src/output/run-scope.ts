/**
 * A run's own secrets, wording, project-file name and logger (src/run-values.ts): each front end
 * runs a command (the CLI, src/cli/dispatch.ts) or a step (the action, src/action/main.ts) inside
 * {@link withRunScope}, first with what it knows before the settings are resolved (the
 * environment's secrets, so that an error while resolving them is redacted too), then nested
 * with the run context's. Two runs in one process never see each other's. The CLI's own process
 * runs one command and nothing else, so its run is the process's ({@link withProcessRunScope}).
 */
import type { RunBinding } from '../run-values.js';
import { withProcessRunValues, withRunValues } from '../run-values.js';
import { runSecretsBinding } from '../redact.js';
import { projectFileBinding, wordingBinding, type Wording } from '../hint.js';
import { loggerBinding, type Logger } from './log.js';

/** What a run is entered with; what is left out is as the enclosing run has it (outside any run, the process default). */
export interface RunScopeValues {
  /** The run's secrets (undefined and blank ones skipped), added to the enclosing run's: a nested run never hides fewer. */
  secrets?: readonly (string | undefined)[];
  /** The front end's words for a hint (src/hint.ts). */
  wording?: Wording;
  /** The project file hints name, from the repository root; null: the run has none. */
  projectFile?: string | null;
  logger?: Logger;
}

/**
 * Runs `fn` as a run of its own with `values`: every sink, cut, hint and `log()` inside it (through
 * every await) reads this run's.
 * @returns what `fn` returns
 */
export function withRunScope<R>(values: RunScopeValues, fn: () => R): R {
  return withRunValues(bindingsOf(values), fn);
}

/**
 * {@link withRunScope} for a process whose one run this is (the CLI's entry): outside any run,
 * `values` become the process's own (src/run-values.ts, `withProcessRunValues`).
 * @returns what `fn` returns
 */
export function withProcessRunScope<R>(values: RunScopeValues, fn: () => R): R {
  return withProcessRunValues(bindingsOf(values), fn);
}

function bindingsOf(values: RunScopeValues): RunBinding[] {
  const bindings: RunBinding[] = [];
  if (values.secrets !== undefined) bindings.push(runSecretsBinding(values.secrets));
  if (values.wording !== undefined) bindings.push(wordingBinding(values.wording));
  if (values.projectFile !== undefined) bindings.push(projectFileBinding(values.projectFile));
  if (values.logger !== undefined) bindings.push(loggerBinding(values.logger));
  return bindings;
}
