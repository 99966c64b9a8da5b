/**
 * The values every layer reads that belong to one run, not to the process: its secrets (the
 * redactor, src/redact.ts), its wording and project-file name (the hints, src/hint.ts) and its
 * logger (src/output/log.ts). Each front end runs a command (the CLI) or a step (the action) in
 * a run of its own (`withRunScope`, src/output/run-scope.ts), so two runs in one process (the
 * in-process tests, the action's steps, a program that embeds the core) never see each other's.
 *
 * One AsyncLocalStorage holds them: a run is a map from {@link RunValue} to its value, carried
 * through every await of the run. Outside any run a value reads its process default (what a
 * bench or a test that calls the core directly sets, and what a process that is one run sets:
 * {@link withProcessRunValues}).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** A value of the run, read where it is needed instead of passed down. */
export interface RunValue<T> {
  /** @returns the current run's value; outside any run (or where the run left it unset), the process default */
  get(): T;
  /**
   * Sets it for the current run alone (and the runs nested in it from then on); outside any run,
   * sets the process default.
   */
  set(value: T): void;
}

type Store = Map<RunValue<unknown>, unknown>;

const storage = new AsyncLocalStorage<Store>();

/** @returns a value of the run whose process default is `initial` */
export function runValue<T>(initial: T): RunValue<T> {
  let fallback = initial;
  const value: RunValue<T> = {
    get: () => {
      const store = storage.getStore();
      return store?.has(value) ? (store.get(value) as T) : fallback;
    },
    set: (next) => {
      const store = storage.getStore();
      if (store) store.set(value, next);
      else fallback = next;
    },
  };
  return value;
}

/** One value of a run as a run is entered with it. */
export interface RunBinding {
  readonly value: RunValue<unknown>;
  readonly to: unknown;
}

/** @returns the binding of `value` to `to` for {@link withRunValues} */
export function bindRunValue<T>(value: RunValue<T>, to: T): RunBinding {
  return { value, to };
}

/**
 * Runs `fn` in a run of its own: the values bound here, every other as the enclosing run has it
 * (copied: what is set inside never reaches the enclosing run or another).
 * @returns what `fn` returns
 */
export function withRunValues<R>(bindings: readonly RunBinding[], fn: () => R): R {
  const store: Store = new Map(storage.getStore());
  for (const binding of bindings) store.set(binding.value, binding.to);
  return storage.run(store, fn);
}

/**
 * Runs `fn` as the run of a process that runs nothing else (the CLI's entry, src/cli/main.ts):
 * outside any run, the values bound here become the process defaults; inside one, this is
 * {@link withRunValues}. Such a process never enters the AsyncLocalStorage, which on Node 20 and
 * 22 puts a hook on every promise from the first run on: a few percent of the CLI's CPU in a
 * 2,000-scope plan (docs/performance.md). Node 24's storage needs no hook.
 * @returns what `fn` returns
 */
export function withProcessRunValues<R>(bindings: readonly RunBinding[], fn: () => R): R {
  if (storage.getStore() !== undefined) return withRunValues(bindings, fn);
  for (const binding of bindings) binding.value.set(binding.to);
  return fn();
}
