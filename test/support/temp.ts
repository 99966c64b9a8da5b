/** Temp directories a test makes and does not leave behind in /tmp, and the files it writes there. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { onTestFinished } from 'vitest';

/** A fresh directory under the OS temp dir (`prefix` + random), removed when the calling test finishes, passed or failed. */
export function tempDirOfTest(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Writes each file of `files` under `dir` (its folders made as needed); null removes the file. */
export function writeFiles(dir: string, files: Readonly<Record<string, string | null>>): void {
  for (const [file, text] of Object.entries(files)) {
    const full = join(dir, file);
    if (text === null) rmSync(full, { force: true });
    else {
      mkdirSync(dirname(full), { recursive: true });
      writeFileSync(full, text);
    }
  }
}
