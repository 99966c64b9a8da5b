/**
 * The test helper that feeds a spawned CLI its input (test/support/cli.ts `runCli`): a CLI that
 * exits without reading stdin closes the pipe under the write. That EPIPE is the child's business;
 * uncaught, it once failed `npm run test:e2e` with every test passed.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

describe('runCli, when the CLI does not read its input', () => {
  it('settles with the exit code, the write to the closed pipe raising nothing', async () => {
    // Far more than a pipe's buffer (64 KiB on Linux), so the write is still going when `--version` exits.
    const run = await runCli(['--version'], { input: 'x'.repeat(8 * 2 ** 20) });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^\d+\.\d+\.\d+/u);
  });
});
