/**
 * The notification targets of a run, resolved from the project file's `notify:` (names of
 * `AUTOJOIN_NOTIFY_*` variables) and the environment (their values). Pure. A value that fails
 * its check skips its target with a warning naming the variable, never the value; an unset secret
 * skips its target (a webhook is never sent unsigned). Targets naming one URL variable share one
 * message: their events and `required` are merged.
 */
import { isLoopbackUrl } from '../service/base-url.js';
import type { NotifyEventName, NotifyTargetConfig } from '../policy/types.js';

/** Every event, the default of `on`. */
export const NOTIFY_EVENTS: readonly NotifyEventName[] = ['applied', 'refused', 'failed', 'drift'];

/** Fewest bytes a webhook's signing secret may have. */
export const MIN_SECRET_BYTES = 32;

export type NotifyKind = NotifyTargetConfig['to'];

/** A target whose URL (and secret) passed their checks: holds secrets, never print it. */
export interface NotifyTarget {
  to: NotifyKind;
  /** The URL's variable: what messages about the target name. */
  variable: string;
  url: URL;
  /** webhook: the signing secret. */
  secret?: string;
  on: ReadonlySet<NotifyEventName>;
  required: boolean;
}

/** A target left out: why, by variable (never a value). */
export interface SkippedTarget {
  to: NotifyKind;
  variable: string;
  on: ReadonlySet<NotifyEventName>;
  required: boolean;
  /** One line naming the variable, e.g. `AUTOJOIN_NOTIFY_SLACK_URL is not set`. */
  problem: string;
  /** True when the variable is unset (warned about only when the run would send). */
  unset: boolean;
}

export interface ResolvedTargets {
  targets: NotifyTarget[];
  skipped: SkippedTarget[];
}

/**
 * @param entries the project file's `notify:` (already checked against its schema)
 * @param env the process environment (the action's too)
 */
export function resolveTargets(entries: readonly NotifyTargetConfig[] | undefined, env: NodeJS.ProcessEnv): ResolvedTargets {
  const targets: NotifyTarget[] = [];
  const skipped: SkippedTarget[] = [];
  for (const entry of mergeByVariable(entries ?? [])) {
    const on = new Set(entry.on ?? NOTIFY_EVENTS);
    const required = entry.required === true;
    const skip = (problem: string, unset: boolean): void => {
      skipped.push({ to: entry.to, variable: entry.urlEnv, on, required, problem, unset });
    };
    const value = (env[entry.urlEnv] ?? '').trim();
    if (value === '') {
      skip(`${entry.urlEnv} is not set`, true);
      continue;
    }
    const urlProblem = checkUrl(value);
    if (typeof urlProblem === 'string') {
      skip(`${entry.urlEnv} ${urlProblem}`, false);
      continue;
    }
    let secret: string | undefined;
    if (entry.secretEnv !== undefined) {
      secret = env[entry.secretEnv] ?? '';
      if (secret.trim() === '') {
        skip(`${entry.secretEnv} (the signing secret of ${entry.urlEnv}) is not set: a webhook is never sent unsigned`, true);
        continue;
      }
      if (Buffer.byteLength(secret, 'utf8') < MIN_SECRET_BYTES) {
        skip(`${entry.secretEnv} (the signing secret of ${entry.urlEnv}) is shorter than ${MIN_SECRET_BYTES} bytes`, false);
        continue;
      }
    } else if (entry.to === 'webhook') {
      skip(`${entry.urlEnv}: a webhook target needs secretEnv; it is never sent unsigned`, false);
      continue;
    }
    targets.push({ to: entry.to, variable: entry.urlEnv, url: urlProblem, ...(secret === undefined ? {} : { secret }), on, required });
  }
  return { targets, skipped };
}

/**
 * A target's URL: `https://`, or `http://` to a loopback host only; no user name or password.
 * @returns the URL, or the problem (never quoting the value)
 */
export function checkUrl(value: string): URL | string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not a URL';
  }
  if (url.username !== '' || url.password !== '') return 'is a URL with credentials in it (give the token in the path, as the service issued it)';
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && isLoopbackUrl(value)) return url;
  return url.protocol === 'http:' ? 'is an http:// URL to a host that is not loopback: https:// is required' : 'is not an https:// URL';
}

/** Entries naming one URL variable become one (the project file allows one kind per variable): events and `required` merged. */
function mergeByVariable(entries: readonly NotifyTargetConfig[]): NotifyTargetConfig[] {
  const merged = new Map<string, NotifyTargetConfig>();
  for (const entry of entries) {
    const before = merged.get(entry.urlEnv);
    if (!before) {
      merged.set(entry.urlEnv, { ...entry });
      continue;
    }
    const on = new Set([...(before.on ?? NOTIFY_EVENTS), ...(entry.on ?? NOTIFY_EVENTS)]);
    merged.set(entry.urlEnv, {
      ...before,
      on: NOTIFY_EVENTS.filter((event) => on.has(event)),
      required: before.required === true || entry.required === true,
      ...(before.secretEnv === undefined && entry.secretEnv !== undefined ? { secretEnv: entry.secretEnv } : {}),
    });
  }
  return [...merged.values()];
}
