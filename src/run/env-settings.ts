/** The settings the environment gives a run: each variable read and checked once (src/environment.ts lists them). */
import { RunError } from '../output/exit-codes.js';
import { isReadMode, READ_MODES } from '../service/read-mode.js';
import type { ReadMode } from '../service/types.js';
import { MAX_REQUEST_TIMEOUT_SECONDS, parseWholeNumber } from './numbers.js';
import { today as clockToday } from '../policy/clock.js';

export function todayOf(env: NodeJS.ProcessEnv): string {
  try {
    return clockToday(env);
  } catch (error) {
    throw new RunError((error as Error).message);
  }
}

/** AUTOJOIN_READ, else its old name AUTOJOIN_LISTING. */
export function readFromEnv(env: NodeJS.ProcessEnv): ReadMode | undefined {
  for (const name of ['AUTOJOIN_READ', 'AUTOJOIN_LISTING']) {
    const value = nonEmpty(env[name])?.trim();
    if (value === undefined) continue;
    if (!isReadMode(value)) throw new RunError(`${name} must be one of ${READ_MODES.join(', ')}, got "${value}"`);
    return value;
  }
  return undefined;
}

export function timeoutFromEnv(env: NodeJS.ProcessEnv): number | undefined {
  const raw = nonEmpty(env.AUTOJOIN_REQUEST_TIMEOUT);
  if (raw === undefined) return undefined;
  const parsed = parseWholeNumber(raw, 1, MAX_REQUEST_TIMEOUT_SECONDS);
  if (parsed === null) throw new RunError(`AUTOJOIN_REQUEST_TIMEOUT must be a whole number of seconds from 1 to ${MAX_REQUEST_TIMEOUT_SECONDS}`);
  return parsed;
}

export function firstSet<T>(candidates: readonly (readonly [string, T | undefined])[]): readonly [string, T] | undefined {
  return candidates.find((candidate): candidate is readonly [string, T] => candidate[1] !== undefined);
}

export function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

/** The variables notifications read (the targets' `AUTOJOIN_NOTIFY_*` and the CI run's facts), read once with the rest of the context. */
export function notifyEnvOf(env: NodeJS.ProcessEnv): Readonly<Record<string, string>> {
  const facts = ['GITHUB_REPOSITORY', 'GITHUB_SHA', 'GITHUB_SERVER_URL', 'GITHUB_RUN_ID'];
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined && (entry[0].startsWith('AUTOJOIN_NOTIFY_') || facts.includes(entry[0]))));
}
