/** The embedded emulator as a connect() starter; only front ends that offer it import this. */
import { DEFAULT_ACCESS_TOKEN, DEFAULT_API_KEY, startEmulator } from '../emulator/index.js';
import type { EmbeddedStarter } from './connect.js';

/** Starts the emulator on a free loopback port over `dataFile`, with its documented credentials. */
export const startEmbeddedEmulator: EmbeddedStarter = async (dataFile) => {
  const emulator = await startEmulator({ port: 0, dataFile });
  return { url: emulator.url, apiKey: DEFAULT_API_KEY, accessToken: DEFAULT_ACCESS_TOKEN, close: () => emulator.close() };
};
