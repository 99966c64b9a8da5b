/**
 * A local emulator of the Invitation Service (calls 1, 1b, 2, 2b, 3, 4 and the SDKs' two DELETE
 * calls; docs/service.md): the CLI's embedded default and every test's real HTTP peer.
 */
export { startEmulator, DEFAULT_API_KEY, DEFAULT_ACCESS_TOKEN } from './server.js';
export { generateData, emptyData, type GenerateOptions } from './seed.js';
export { ALL_FAULTS, parseFaultKinds } from './faults.js';
export type * from './types.js';
