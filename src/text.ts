/** Wording shared by every module that writes for people. */

/** @returns `1 file`, `2 files`. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/**
 * @returns `12,345`: an integer grouped by thousands, as `toLocaleString('en-US')` writes it,
 *   without it: the first call of that maps about 6 MB of ICU locale data into memory, which a
 *   progress line (`read 4,200/10,000 scopes`) should not cost.
 */
export function groupedNumber(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/gu, ',');
}

/**
 * @returns `text` as one flat string. V8 keeps a string built by concatenation as a tree of
 *   its parts (about 32 bytes a part) until it is read; reading one character flattens it in
 *   place. For strings kept by the ten thousand (diagnostic messages) that is a third of their
 *   memory.
 */
export function flatString(text: string): string {
  text.charCodeAt(0);
  return text;
}

/**
 * The first `max` items, then how many are left out: `team/a, team/b and 3 more`.
 * @param more words for the `hidden` items left out (` and 3 more` by default, `, …` for a preview)
 * @param separator between the items shown
 */
export function firstItems(items: readonly string[], max: number, more = (hidden: number): string => ` and ${hidden} more`, separator = ', '): string {
  const shown = items.slice(0, max).join(separator);
  return items.length > max ? shown + more(items.length - max) : shown;
}

/**
 * @returns `text` as a string of its own. V8 keeps a substring of 13 or more characters as a
 *   slice of the string it was cut from, so a domain kept from a policy file (a queued policy, a
 *   change) keeps the whole file's text alive: about 60 bytes a domain at 100 scopes a file.
 */
export function ownString(text: string): string {
  if (text.length < 13) return text;
  // eslint-disable-next-line no-control-regex
  return /^[\x00-\x7f]*$/.test(text) ? Buffer.from(text, 'latin1').toString('latin1') : (' ' + text).slice(1);
}
