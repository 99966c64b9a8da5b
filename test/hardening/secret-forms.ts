/**
 * A key in the forms a service may echo it (raw, base64, hex, percent-encoded, split by a
 * zero-width space), and the one leak check of the echo suites: no part of `part` characters of any
 * form, as a reader sees the text (entities decoded, zero-width characters dropped, lower case).
 */

/** The five forms of `key`; `splitAt` is where the zero-width space goes. */
export function secretForms(key: string, splitAt: number): Record<string, string> {
  const hex = Buffer.from(key).toString('hex');
  return {
    raw: key,
    base64: Buffer.from(key).toString('base64'),
    hex,
    percent: hex.replace(/../gu, (pair) => `%${pair.toUpperCase()}`),
    split: `${key.slice(0, splitAt)}\u200b${key.slice(splitAt)}`,
  };
}

/** The text as a reader sees it: entities decoded, zero-width characters (raw or escaped) dropped, lower case. */
export function readable(text: string): string {
  return text
    .replace(/&#(\d+);/gu, (_, code: string) => String.fromCharCode(Number(code)))
    .replace(/\\u\{200b\}|\\u200b|\u200b/giu, '')
    .toLowerCase();
}

/** A leak check over every part of `part` characters of every form. */
export function leakCheck(forms: Record<string, string>, part: number): { parts: readonly string[]; leaksIn: (where: string, text: string) => string[] } {
  const parts = [
    ...new Set(
      Object.values(forms).flatMap((form) => {
        const plain = form.replace(/\u200b/gu, '').toLowerCase();
        return Array.from({ length: plain.length - part + 1 }, (_, at) => plain.slice(at, at + part));
      }),
    ),
  ];
  const leaksIn = (where: string, text: string): string[] => {
    const seen = readable(text);
    const found = parts.filter((one) => seen.includes(one));
    return found.length === 0 ? [] : [`${where} shows ${found.length} parts of the key, e.g. ${JSON.stringify(found[0])}`];
  };
  return { parts, leaksIn };
}
