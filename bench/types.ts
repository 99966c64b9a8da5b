/** One line of the `npm run bench` table. */
export interface BenchRow {
  /** What was measured, e.g. "plan 2,000 scopes @ 20 ms". */
  name: string;
  /** The figure, with its unit, e.g. "1.84 s", "412 MiB". */
  value: string;
  /** Ratios measured in the same run, e.g. "41.3× faster than naive sequential; 1.21× the latency-bound limit". */
  comparison: string;
  /** The goal the figure is held to (issue 13), e.g. "≤ 1.10× the limit"; absent for a figure without one. */
  goal?: string;
  /** Whether this run met the goal. */
  met?: boolean;
}

/** How a bench runs: `--short` (CI) shrinks every size to check that it runs, not how fast. */
export interface BenchOptions {
  short: boolean;
}
