/**
 * Prints, after vitest's own summary, one line per skipped test with the reason it gave
 * (`context.skip(reason)`, see test/support/requires.ts; "no reason given" otherwise), then one
 * plain closing line, `tests: N passed, N failed, N skipped`, so tools that read a run's last lines
 * can tell how many tests ran and a reader can tell a skip from a pass. Under GitHub Actions the
 * same lines go to the job summary ($GITHUB_STEP_SUMMARY).
 */
import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: readonly TestModule[]): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    const skips: string[] = [];
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const result = test.result();
        if (result.state === 'passed' || result.state === 'failed') {
          counts[result.state] += 1;
          continue;
        }
        counts.skipped += 1;
        const note = result.state === 'skipped' ? result.note : undefined;
        skips.push(`skipped: ${relative(process.cwd(), module.moduleId)} > ${test.fullName}: ${note ?? 'no reason given'}`);
      }
    }
    const closing = `tests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`;
    process.stdout.write(`\n${skips.map((line) => `${line}\n`).join('')}${closing}\n`);
    const summary = process.env.GITHUB_STEP_SUMMARY;
    if (summary) {
      const body = skips.length === 0 ? '' : `\n${skips.map((line) => `- ${line}`).join('\n')}\n`;
      appendFileSync(summary, `\n**${closing}**\n${body}`);
    }
  }
}
