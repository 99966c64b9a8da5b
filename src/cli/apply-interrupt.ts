/**
 * Ctrl-C (SIGINT) during `apply`: exit 130, whatever the moment it comes (docs/cli.md, "Exit codes").
 *  - Before the first write (reading, planning, checking, asking): nothing was written; stop now.
 *  - During the writes: the first finishes the requests in flight and starts no more, then the
 *    report is printed as usual (the scopes left out are skipped); a second prints the report of
 *    what was written so far (the requests still in flight named so) and stops now.
 *  - After the writes (the report, notifications): the run finishes, then exits 130.
 * The signal source and the exit are injectable, so the moments can be tested in-process.
 */
import type { ApplyReport } from '../apply/types.js';
import type { Plan } from '../plan/index.js';
import { writeStderr } from '../output/sinks.js';

/** The exit code of a run stopped by Ctrl-C (128 + SIGINT, what a shell reports for a killed process). */
export const INTERRUPTED_EXIT_CODE = 130;

export interface SignalSource {
  /** Starts listening; returns the function that stops. */
  listen(listener: () => void): () => void;
  /** Ends the process with `code` (the report was written first). */
  exit(code: number): void;
}

const processSignals: SignalSource = {
  listen(listener) {
    process.on('SIGINT', listener);
    return () => process.removeListener('SIGINT', listener);
  },
  exit(code) {
    // Stop now, with requests still in flight (they would keep the process alive): the report is written (synchronously) first.
    // eslint-disable-next-line n/no-process-exit
    process.exit(code);
  },
};

type Phase = { name: 'before' } | { name: 'writing'; plan: Plan; soFar?: () => ApplyReport } | { name: 'after' };

export class ApplyInterrupt {
  /** Aborted on the first Ctrl-C during the writes: no new write starts. */
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private phase: Phase = { name: 'before' };
  private count = 0;
  private readonly stop: () => void;

  /** @param printReport prints the report of an interrupted run (text or JSON, as the run's own report) */
  constructor(
    private readonly printReport: (plan: Plan, report: ApplyReport) => void,
    private readonly source: SignalSource = processSignals,
  ) {
    this.signal = this.controller.signal;
    this.stop = source.listen(() => this.onSignal());
  }

  /** True once Ctrl-C came: the run ends with exit 130. */
  get interrupted(): boolean {
    return this.count > 0;
  }

  /** The writes of `plan` start (after the confirmation). */
  writing(plan: Plan): void {
    this.phase = { name: 'writing', plan };
  }

  /** After each written scope: the report so far, for a second Ctrl-C. */
  progress(soFar: () => ApplyReport): void {
    if (this.phase.name === 'writing') this.phase.soFar = soFar;
  }

  /** The writes are over (every request answered). */
  written(): void {
    this.phase = { name: 'after' };
  }

  /** Stops listening; the default Ctrl-C (end the process) applies again. */
  dispose(): void {
    this.stop();
  }

  private onSignal(): void {
    this.count += 1;
    const phase = this.phase;
    if (phase.name === 'before') {
      writeStderr('\ninterrupted before any write: nothing was written\n');
      this.source.exit(INTERRUPTED_EXIT_CODE);
    } else if (phase.name === 'writing' && this.count === 1) {
      writeStderr('\ninterrupted: finishing the requests in flight, starting no more (Ctrl-C again to stop now)\n');
      this.controller.abort();
    } else if (phase.name === 'writing') {
      writeStderr('\ninterrupted again: stopping now; the report below is what was written so far\n');
      this.printReport(phase.plan, phase.soFar?.() ?? nothingFinished(phase.plan));
      this.source.exit(INTERRUPTED_EXIT_CODE);
    } else if (this.count === 1) {
      writeStderr('\ninterrupted: every write is done; finishing the report (Ctrl-C again to stop now)\n');
    } else {
      this.source.exit(INTERRUPTED_EXIT_CODE);
    }
  }
}

/** A second Ctrl-C before the first answer: each scope was in flight or not started, none known to be written. */
function nothingFinished(plan: Plan): ApplyReport {
  const reason = 'in flight or not started when the run stopped: its write may or may not have been stored';
  return { applied: [], failed: [], skipped: plan.changes.map((change) => ({ key: change.key, reason })) };
}
