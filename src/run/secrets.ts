import type { NamedSecret } from '../policy/secret-scan.js';

/**
 * The secrets a run is configured with, from the environment (the action puts its inputs in the
 * environment's place): no policy file may hold their values, and no output shows them
 * (src/output/sinks.ts). VORTEX_API_KEY, the SDKs' name of the key, counts whether or not it is
 * the key in use. A module of its own, so that the offline `validate` does not load the client
 * to know them.
 */
export function configuredSecrets(env: NodeJS.ProcessEnv): NamedSecret[] {
  const keys = (['AUTOJOIN_API_KEY', 'AUTOJOIN_ACCESS_TOKEN', 'VORTEX_API_KEY'] as const).flatMap((name) => {
    const value = env[name];
    return value === undefined || value.trim() === '' ? [] : [{ name, value }];
  });
  return [...keys, ...notifySecrets(env)];
}

/** Shortest AUTOJOIN_NOTIFY_* value taken for a secret: `https://` and any URL or secret worth the name is longer. */
const MIN_NOTIFY_VALUE = 8;

/**
 * Every AUTOJOIN_NOTIFY_* value (the notification targets' URLs and signing secrets, src/notify):
 * redacted as the key is, whether or not a target names it or it passes its checks, so that
 * neither a warning about it nor an echo of it shows it. Also each URL's path and query, the part
 * a Slack or Teams webhook keeps its token in.
 */
export function notifySecrets(env: NodeJS.ProcessEnv): NamedSecret[] {
  return Object.keys(env)
    .filter((name) => name.startsWith('AUTOJOIN_NOTIFY_'))
    .sort()
    .flatMap((name) => {
      const value = (env[name] ?? '').trim();
      if (value.length < MIN_NOTIFY_VALUE) return [];
      const tail = urlTail(value);
      return [{ name, value }, ...(tail === null ? [] : [{ name, value: tail }])];
    });
}

/** A URL's path and query (`/services/T0/B0/XXXX`), when long enough to be a token's home. */
function urlTail(value: string): string | null {
  try {
    const url = new URL(value);
    const tail = `${url.pathname}${url.search}`;
    return tail.length >= MIN_NOTIFY_VALUE ? tail : null;
  } catch {
    return null;
  }
}
