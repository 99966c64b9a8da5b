/**
 * Calendar days for time-bound grants. Dates are `YYYY-MM-DD` calendar days in UTC; "today"
 * comes from the clock, or from AUTOJOIN_NOW, which exists for tests (a fixed day, so a test
 * of an expiry never depends on when it runs).
 */

/** The environment variable that fixes "today" for tests: `AUTOJOIN_NOW=2026-03-01`. */
export const NOW_VARIABLE = 'AUTOJOIN_NOW';

/** Days before its `expires` date from which an entry is warned about. */
export const EXPIRY_WARNING_DAYS = 14;

const DAY_MS = 86_400_000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** @returns whether `text` is a real calendar day written `YYYY-MM-DD` (no 2026-02-30). */
export function isCalendarDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const time = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return new Date(time).toISOString().slice(0, 10) === text;
}

/**
 * @returns today as `YYYY-MM-DD` (UTC), or the day AUTOJOIN_NOW names
 * @throws Error when AUTOJOIN_NOW is set but is not a calendar day
 */
export function today(env: NodeJS.ProcessEnv = process.env, now: Date = new Date()): string {
  const fixed = env[NOW_VARIABLE];
  if (fixed === undefined || fixed === '') return now.toISOString().slice(0, 10);
  if (!isCalendarDate(fixed)) throw new Error(`${NOW_VARIABLE} must be a day written YYYY-MM-DD (it is for tests), got "${fixed}"`);
  return fixed;
}

/** @returns whole days from `from` to `to` (negative when `to` is earlier); both calendar days. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/** @returns the day `days` after `from`. */
export function addDays(from: string, days: number): string {
  return new Date(Date.parse(`${from}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/**
 * @returns the moment a plan says it was made: the clock, moved to the day AUTOJOIN_NOW names
 *   when it is set, so a plan's date (its `createdAt`) is the day its expiry was evaluated on
 */
export function planMoment(env: NodeJS.ProcessEnv = process.env, now: Date = new Date()): Date {
  return new Date(`${today(env, now)}${now.toISOString().slice(10)}`);
}
