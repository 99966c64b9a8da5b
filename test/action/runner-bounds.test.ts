/**
 * The runner's channels are bounded as well as redacted (src/action/runner.ts): a log line, an
 * annotation, an output, and the job summary, which GitHub drops past 1 MiB in bytes (a 2 MB live
 * value once made the whole summary vanish). Each is redacted whole, then cut.
 */
import { appendFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const core = await vi.hoisted(async () => (await import('../support/actions-core.js')).fakeActionsCore());
vi.mock('@actions/core', () => core);

const runner = await import('../../src/action/runner.js');
const { setRunSecrets } = await import('../../src/redact.js');

const KEY = 'sk_live_Runner*Key_51f0';
let dir: string;

beforeEach(async () => {
  vi.clearAllMocks();
  dir = await mkdtemp(join(tmpdir(), 'autojoin-runner-'));
  setRunSecrets([KEY]);
});

afterEach(async () => {
  setRunSecrets([]);
  vi.unstubAllEnvs();
  await rm(dir, { recursive: true, force: true });
});

describe('the runner channels are bounded', () => {
  it('a 2 MB log line, annotation, failure and output are cut; a key at the cut shows no part', () => {
    const huge = 'o'.repeat(2_000_000);
    runner.info(huge);
    runner.warning(huge);
    runner.setFailed(huge);
    runner.setOutput('summary', huge);
    expect(String(core.info.mock.calls[0]?.[0]).length).toBe(runner.MESSAGE_MAX_CHARS);
    expect(String(core.warning.mock.calls[0]?.[0]).length).toBe(runner.MESSAGE_MAX_CHARS);
    expect(String(core.setFailed.mock.calls[0]?.[0]).length).toBe(runner.MESSAGE_MAX_CHARS);
    expect(core.setOutput).toHaveBeenCalledWith('summary', expect.any(String));
    expect(String(core.setOutput.mock.calls[0]?.[1]).length).toBe(runner.OUTPUT_MAX_CHARS);
    for (let at = runner.OUTPUT_MAX_CHARS - KEY.length - 2; at <= runner.OUTPUT_MAX_CHARS + 1; at += 1) {
      runner.setOutput('summary', `${'x'.repeat(at)}${KEY}${'y'.repeat(50)}`);
      expect(String(core.setOutput.mock.calls.at(-1)?.[1])).not.toMatch(/sk_l|Runner|Key_5/u);
    }
  });

  it('the job summary: every write of a step together stays under 1 MiB in bytes, multi-byte characters too', async () => {
    const file = join(dir, 'summary.md');
    await writeFile(file, '');
    vi.stubEnv('GITHUB_STEP_SUMMARY', file);
    // Each call stands for one writeJobSummary: the text is added, then written to the file.
    core.summary.addRaw.mockImplementation(((text: string, addEOL?: boolean) => {
      appendFileSync(file, addEOL === true ? `${text}\n` : text);
      return core.summary;
    }) as never);
    const written: string[] = [];
    for (const text of [`${'x'.repeat(10)}${KEY}`, 'ä'.repeat(300_000), '字'.repeat(300_000), 'z'.repeat(10)]) {
      runner.summary.addRaw(text, true);
      written.push(String(core.summary.addRaw.mock.calls.at(-1)?.[0]));
    }
    const summary = await readFile(file, 'utf8');
    expect(Buffer.byteLength(summary, 'utf8')).toBeLessThanOrEqual(runner.SUMMARY_MAX_BYTES);
    expect(Buffer.byteLength(summary, 'utf8')).toBeGreaterThan(runner.SUMMARY_MAX_BYTES - 4);
    expect(written[0]).toBe('xxxxxxxxxx***');
    expect(written[1]).toBe('ä'.repeat(300_000));
    expect(written[2]?.endsWith('…')).toBe(true);
    expect(written[3]).toBe('');
  });
});
