/**
 * The load worker's thread (built as dist/chunks/policy-loader.js; load-worker.ts starts it):
 * reads and checks the files the main thread discovered, and posts each batch, at most
 * `ahead` batches before the main thread has taken them, then the load's result.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { discoveredBatches } from './load.js';
import type { WorkerLoad, WorkerMessage } from './load-worker.js';

/** Runs one load and posts it through `port`; each message from the other side lets one more batch go. */
export async function serveLoad(port: MessagePort, load: WorkerLoad): Promise<void> {
  let credit = load.ahead;
  // The main thread loaded the first batches itself (load-worker.ts): checked here too, for the files after them, but not posted.
  let skip = load.skipBatches ?? 0;
  let resume: (() => void) | undefined;
  port.on('message', () => {
    credit += 1;
    resume?.();
  });
  const post = (message: WorkerMessage): void => port.postMessage(message);
  try {
    const batches = discoveredBatches(load.discovery, load.options, false);
    for (let next = await batches.next(); ; next = await batches.next()) {
      if (next.done) {
        post({ type: 'done', result: next.value });
        break;
      }
      if (skip > 0) {
        skip -= 1;
        continue;
      }
      post({ type: 'batch', batch: next.value });
      credit -= 1;
      while (credit <= 0) await new Promise<void>((resolve) => (resume = resolve));
    }
  } catch (error) {
    post({ type: 'failed', error: error instanceof Error ? error : new Error(String(error)) });
  } finally {
    port.unref();
  }
}

// Started by load-worker.ts (not imported, e.g. by a test, in some other thread).
if (parentPort && isWorkerLoad(workerData)) await serveLoad(parentPort, workerData);

function isWorkerLoad(data: unknown): data is WorkerLoad {
  return typeof data === 'object' && data !== null && 'discovery' in data && 'ahead' in data;
}
