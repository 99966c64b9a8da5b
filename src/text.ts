/** Wording shared by every module that writes for people. */

/** @returns `1 file`, `2 files`. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/**
 * @returns `text` as one flat string. V8 keeps a string built by concatenation as a tree of
 *   its parts (about 32 bytes a part) until it is read; reading one character flattens it in
 *   place. For strings kept by the ten thousand (diagnostic messages, scope keys) that is a third
 *   of their memory.
 */
export function flatString(text: string): string {
  text.charCodeAt(0);
  return text;
}
