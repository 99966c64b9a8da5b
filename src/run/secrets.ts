import type { NamedSecret } from '../policy/secret-scan.js';

/**
 * The secrets a run is configured with, from the environment (the action puts its inputs in the
 * environment's place): no policy file may hold their values, and no output shows them
 * (src/output/sinks.ts). VORTEX_API_KEY, the SDKs' name of the key, counts whether or not it is
 * the key in use. A module of its own, so that the offline `validate` does not load the client
 * to know them.
 */
export function configuredSecrets(env: NodeJS.ProcessEnv): NamedSecret[] {
  return (['AUTOJOIN_API_KEY', 'AUTOJOIN_ACCESS_TOKEN', 'VORTEX_API_KEY'] as const).flatMap((name) => {
    const value = env[name];
    return value === undefined || value.trim() === '' ? [] : [{ name, value }];
  });
}
