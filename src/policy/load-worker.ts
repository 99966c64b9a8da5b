/**
 * The loader's stream (load.ts `streamPolicies`) with reading and checking the files in a worker
 * thread, so that a plan over many files loads them on another core while its main thread serves
 * the live reads. Same contract: the same batches in the same order, the same warnings, `failed`
 * and final LoadResult; an error the loader throws is thrown here.
 *
 * Only where it pays: the built CLI (its worker module, policy-loader.js, is built beside this
 * code; scripts/build.mjs) and from MIN_WORKER_FILES to MAX_WORKER_FILES files. Everywhere else (src/ under the tests,
 * the action bundle, a small repository) the loader runs in-process. Discovery runs here first,
 * as it tells how many files there are. Policies and diagnostics cross as plain data (structured
 * clone); nothing on this side reads a class or an identity the worker made.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { today } from './clock.js';
import { discoverPolicyFiles, type Discovery } from './discover.js';
import { discoveredBatches, SMALL_BATCHES, type LoadOptions, type PolicyBatch } from './load.js';
import type { LoadResult } from './types.js';

/**
 * Fewer files load in-process. The worker's first batch comes about 100 ms later than the
 * loader's own (starting a thread, loading its modules), about what loading 500 small files
 * costs the main thread (docs/performance.md). Counted in files, not documents: a few files of many documents load
 * in-process, as the worker's heap would add its own 12-20 MiB to the peak of those runs.
 */
export const MIN_WORKER_FILES = 500;

/**
 * More files load in-process too: the thread's heap grows with the files it checks (what later
 * files are checked against), on top of the 10 MiB or so the thread itself takes, so at 10,000
 * steady scopes a plan peaked at 120 MiB with it against 95 MiB without, and at 30,000 at 155-160
 * against 117 MiB; memory flat in scopes matters more there than the main thread's share of
 * loading (docs/performance.md). Runs that large are the ones to shard (docs/sharding.md).
 */
export const MAX_WORKER_FILES = 5_000;

/** Batches the worker may have sent that the consumer has not taken yet: memory stays flat in the files. */
export const WORKER_AHEAD = 3;

/**
 * Batches the main thread loads itself while the thread starts: the loader's small first ones
 * (8 × 16 files; the thread's first batch comes 150-220 ms after it was created, while one batch
 * of 16 keeps 16 reads busy for about 90 ms at 20 ms a request). The worker checks them too,
 * without posting them.
 */
export const BATCHES_HERE = SMALL_BATCHES;

/**
 * The worker's heap. Its young generation stays at its first size as the main thread's does (the
 * CLI's V8 flags are the process's), and is capped small. The old generation keeps about 750
 * bytes a file until the load ends (a key, a position, the file's name): 30,000 files need more
 * than 24 MiB; the cap leaves room for about a million.
 */
const RESOURCE_LIMITS: ResourceLimits = { maxYoungGenerationSizeMb: 6, maxOldGenerationSizeMb: 1024 };

/** The worker module of the built CLI, beside the code that starts it. */
const BUILT_WORKER = new URL('./policy-loader.js', import.meta.url);

/** What the worker is started with; plain data only. */
export interface WorkerLoad {
  discovery: Discovery;
  /** cwd and today resolved here, once. */
  options: Omit<LoadOptions, 'onChecked'>;
  ahead: number;
  /** The main thread loads this many batches itself while the thread starts: the worker checks them too (for what later files are checked against) but does not post them. */
  skipBatches?: number;
}

/** What the worker posts: a batch, the load's result, or what the loader threw. */
export type WorkerMessage = { type: 'batch'; batch: PolicyBatch } | { type: 'done'; result: LoadResult } | { type: 'failed'; error: unknown };

/** Which loader a stream uses (tests choose; by default the built worker, when there is one). */
export interface WorkerChoice {
  /** The worker module; null: in-process. */
  url?: URL | null;
  /** Fewest files worth a thread (default MIN_WORKER_FILES). */
  minFiles?: number;
  /** Most files loaded in a thread (default MAX_WORKER_FILES). */
  maxFiles?: number;
}

/** The worker could not start, or stopped before it finished. */
export class LoadWorkerStopped extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'LoadWorkerStopped';
  }
}

/**
 * streamPolicies, reading and checking the files in a worker thread when there are enough of them.
 * @returns the load's result, as streamPolicies
 */
export async function* streamPoliciesInWorker(
  paths: readonly string[],
  options: Omit<LoadOptions, 'onChecked'> = {},
  choice: WorkerChoice = {},
): AsyncGenerator<PolicyBatch, LoadResult, undefined> {
  const cwd = options.cwd ?? process.cwd();
  const discovery = await discoverPolicyFiles(paths, cwd);
  const resolved = { ...options, cwd, today: options.today ?? today() };
  const url = choice.url === undefined ? builtWorker() : choice.url;
  const files = discovery.files.length;
  if (url === null || files < (choice.minFiles ?? MIN_WORKER_FILES) || files > (choice.maxFiles ?? MAX_WORKER_FILES)) return yield* discoveredBatches(discovery, resolved, false);
  return yield* workerBatches(url, { discovery, options: resolved, ahead: WORKER_AHEAD });
}

function builtWorker(): URL | null {
  return BUILT_WORKER.protocol === 'file:' && existsSync(fileURLToPath(BUILT_WORKER)) ? BUILT_WORKER : null;
}

/**
 * The worker's batches as they come; one more is asked for each one taken. The first
 * BATCHES_HERE batches are loaded here while the thread starts (the worker checks those files
 * again without posting them), so the first live reads go out as early as with the loader
 * in-process and do not wait for the thread. A worker that cannot start is replaced by the loader
 * here, which goes on after its own batches; one that stops after its first message is an error.
 * Stopping the stream early terminates the worker.
 */
async function* workerBatches(url: URL, load: WorkerLoad): AsyncGenerator<PolicyBatch, LoadResult, undefined> {
  const worker = new Worker(url, { workerData: { ...load, skipBatches: BATCHES_HERE }, resourceLimits: RESOURCE_LIMITS });
  const inbox = workerInbox(worker);
  const here = discoveredBatches(load.discovery, load.options, false);
  let started = false;
  try {
    for (let loaded = 0; loaded < BATCHES_HERE; loaded++) {
      const next = await here.next();
      if (next.done) return next.value;
      yield next.value;
    }
    for (;;) {
      const message = await inbox.next();
      started = true;
      if (message.type === 'done') return message.result;
      if (message.type === 'failed') throw message.error;
      yield message.batch;
      worker.postMessage('more');
    }
  } catch (error) {
    if (started || !(error instanceof LoadWorkerStopped)) throw error;
    return yield* here;
  } finally {
    await worker.terminate();
  }
}

/**
 * The worker's messages in order, then why it stopped. The worker holds the process open only
 * while a message is awaited: a stream abandoned unfinished never keeps the process from exiting.
 */
function workerInbox(worker: Worker): { next: () => Promise<WorkerMessage> } {
  const queue: WorkerMessage[] = [];
  let stopped: LoadWorkerStopped | undefined;
  let waiting: { resolve: (message: WorkerMessage) => void; reject: (error: Error) => void } | undefined;
  const settle = (): void => {
    if (!waiting || (queue.length === 0 && !stopped)) return;
    const { resolve, reject } = waiting;
    waiting = undefined;
    worker.unref();
    const message = queue.shift();
    if (message) resolve(message);
    else reject(stopped as LoadWorkerStopped);
  };
  const stop = (error: LoadWorkerStopped): void => {
    stopped ??= error;
    settle();
  };
  worker.unref();
  worker.on('message', (message: WorkerMessage) => {
    queue.push(message);
    settle();
  });
  worker.on('error', (error) => stop(new LoadWorkerStopped(`the policy loader's worker thread failed: ${error.message}`, { cause: error })));
  worker.on('exit', (code) => stop(new LoadWorkerStopped(`the policy loader's worker thread exited (code ${code}) before it had loaded every file`)));
  return {
    next: () =>
      new Promise((resolve, reject) => {
        waiting = { resolve, reject };
        worker.ref();
        settle();
      }),
  };
}
