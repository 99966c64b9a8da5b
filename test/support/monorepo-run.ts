/** The three-team monorepo (./monorepo.ts) for a test that runs the CLI in-process at its root. */
import { rmSync } from 'node:fs';
import { onTestFinished } from 'vitest';
import { runInProcess } from './in-process.js';
import { makeMonorepo, MONOREPO_NOW } from './monorepo.js';

/** The fixture's date, and no service or credential from the machine running the tests: the embedded emulator. */
export const MONOREPO_ENV = { AUTOJOIN_NOW: MONOREPO_NOW, AUTOJOIN_BASE_URL: undefined, AUTOJOIN_API_KEY: undefined, AUTOJOIN_ACCESS_TOKEN: undefined };

/** A new monorepo (with `extra` files), removed when the calling test finishes. */
export function monorepoOfTest(extra: Readonly<Record<string, string | null>> = {}): string {
  const dir = makeMonorepo(extra);
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The CLI in-process in `cwd`, under {@link MONOREPO_ENV}. */
export const monorepoCli = (cwd: string, ...args: string[]): ReturnType<typeof runInProcess> => runInProcess(args, { cwd, env: MONOREPO_ENV });
