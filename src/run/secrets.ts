import type { NamedSecret } from '../policy/secrets.js';

/**
 * The secrets a run is configured with, from the environment (the action puts its inputs in the
 * environment's place): no policy file may hold their values. A module of its own, so that the
 * offline `validate` does not load the client to know them.
 */
export function configuredSecrets(env: NodeJS.ProcessEnv): NamedSecret[] {
  return (['AUTOJOIN_API_KEY', 'VORTEX_API_KEY', 'AUTOJOIN_ACCESS_TOKEN'] as const).flatMap((name) => {
    const value = env[name];
    return value === undefined || value.trim() === '' ? [] : [{ name, value }];
  });
}
