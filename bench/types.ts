/** One line of the `npm run bench` table. */
export interface BenchRow {
  /** What was measured, e.g. "plan 2,000 scopes @ 20 ms". */
  name: string;
  /** The figure, with its unit, e.g. "1.84 s", "412 MiB". */
  value: string;
  /** Ratios measured in the same run, e.g. "41.3× faster than naive sequential; 1.21× the latency-bound limit". */
  comparison: string;
}
