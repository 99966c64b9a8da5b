/**
 * A temp project and an emulator per test, for in-process runs of the CLI, removed after each
 * test; `NO_CI` unsets every CI variable, so a run decides as it would on a laptop.
 */
import { afterEach } from 'vitest';
import { CI_VARIABLES } from '../../src/run/ci.js';
import type { Emulator } from '../../src/emulator/index.js';
import { SECRET, startTestEmulator, tempProject, type TempProject } from '../e2e/support.js';

export const NO_CI: Record<string, undefined> = Object.fromEntries(['CI', ...CI_VARIABLES].map((name) => [name, undefined]));

export interface EmulatorEstate {
  emulator?: Emulator;
  project?: TempProject;
  /** A project of `files` against a fresh emulator, and the environment that points the CLI at it. */
  against: (files: Record<string, string>) => Promise<{ dir: string; env: Record<string, string | undefined> }>;
}

/** Registers the cleanup of each test's emulator and project. */
export function emulatorEstate(): EmulatorEstate {
  const estate: EmulatorEstate = {
    async against(files) {
      const emulator = await startTestEmulator();
      const project = await tempProject(files);
      estate.emulator = emulator;
      estate.project = project;
      return { dir: project.dir, env: { ...NO_CI, AUTOJOIN_BASE_URL: emulator.url, AUTOJOIN_API_KEY: SECRET } };
    },
  };
  afterEach(async () => {
    await estate.emulator?.close();
    await estate.project?.cleanup();
    delete estate.emulator;
    delete estate.project;
  });
  return estate;
}
