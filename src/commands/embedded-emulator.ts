/**
 * The embedded emulator a CLI request connects to when it names no service
 * (src/commands/connection.ts): only the CLI passes it, so the action's bundle carries no emulator.
 * The emulator itself loads on first use, so a run against a real service never loads it.
 */
import type { EmbeddedStarter } from '../connect/connect.js';

/** Starts the emulator on a free loopback port over `dataFile` (waiting while another run holds it), with its documented credentials. */
export const startEmbeddedEmulator: EmbeddedStarter = async (dataFile, notice) => {
  const { DEFAULT_ACCESS_TOKEN, DEFAULT_API_KEY, startEmulator } = await import('../emulator/index.js');
  const emulator = await startEmulator({ port: 0, dataFile, onLockWait: notice });
  return { url: emulator.url, apiKey: DEFAULT_API_KEY, accessToken: DEFAULT_ACCESS_TOKEN, close: () => emulator.close() };
};
