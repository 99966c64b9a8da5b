/** Temp directories a test makes and does not leave behind in /tmp. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

/** A fresh directory under the OS temp dir (`prefix` + random), removed when the calling test finishes, passed or failed. */
export function tempDirOfTest(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
