/**
 * Homograph checks for internationalized domains: a reviewer reads `gmаil.com` (Cyrillic а) as
 * gmail.com, and a policy that lets it in is approved by mistake. Three rules, after UTS #39
 * (Unicode Security Mechanisms):
 *
 *  1. A label mixes scripts (Latin with Cyrillic, …): an error. Han with Hiragana/Katakana
 *     (Japanese), Hangul (Korean) or Bopomofo counts as one script, as UTS #39's augmented
 *     script sets have it; digits and `-` (Common) go with any script.
 *  2. The domain's skeleton equals the skeleton of a webmail or well-known domain it is not:
 *     an error naming the domain it looks like.
 *  3. A Latin label with non-ASCII letters whose skeleton is plain ASCII (`gmaiı` with a
 *     dotless ı) looks exactly like an ASCII name: an error naming that name.
 *
 * Skeletons map each character through Unicode's confusables.txt (the `unhomoglyph` package's
 * data, see the deps commit) between two NFD steps, as UTS #39 §4 defines them. Only domains
 * with an `xn--` label are checked, so ASCII policies never pay for the tables.
 */
import { domainToUnicode } from 'node:url';
import confusables from 'unhomoglyph/data.json' with { type: 'json' };

const CONFUSABLE = confusables as Record<string, string>;

/** Domains a look-alike is most often made of, beyond the webmail list: sign-in and payment brands. */
const WELL_KNOWN = [
  'google.com', 'microsoft.com', 'apple.com', 'amazon.com', 'github.com', 'gitlab.com', 'paypal.com',
  'facebook.com', 'linkedin.com', 'slack.com', 'okta.com', 'salesforce.com', 'dropbox.com', 'adobe.com',
];

/** Scripts told apart; a letter of any other script counts as its own script, `Other`. */
const SCRIPTS = [
  'Latin', 'Greek', 'Cyrillic', 'Armenian', 'Hebrew', 'Arabic', 'Syriac', 'Thaana', 'Devanagari', 'Bengali',
  'Gurmukhi', 'Gujarati', 'Oriya', 'Tamil', 'Telugu', 'Kannada', 'Malayalam', 'Sinhala', 'Thai', 'Lao',
  'Tibetan', 'Myanmar', 'Georgian', 'Hangul', 'Ethiopic', 'Cherokee', 'Khmer', 'Mongolian', 'Hiragana',
  'Katakana', 'Bopomofo', 'Han',
];

/** UTS #39 augmented script sets: what else a character of these scripts may be written with. */
const AUGMENTED: Record<string, readonly string[]> = {
  Han: ['Japanese', 'Korean', 'Bopomofo-Han'],
  Hiragana: ['Japanese'],
  Katakana: ['Japanese'],
  Hangul: ['Korean'],
  Bopomofo: ['Bopomofo-Han'],
};

let scriptTests: { name: string; test: RegExp }[] | undefined;
let lookAlikes: Map<string, string> | undefined;

/**
 * @param ascii a normalized domain (punycode labels)
 * @param familiar domains a look-alike is checked against besides the built-in well-known ones (the webmail list)
 * @returns the first homograph problem as a sentence, or null
 */
export function homographProblem(ascii: string, familiar: () => Iterable<string>): string | null {
  if (!/(^|\.)xn--/u.test(ascii)) return null;
  const unicode = domainToUnicode(ascii);
  if (unicode === '' || unicode === ascii) return null;
  const shown = `${ascii} (${unicode})`;
  for (const label of unicode.split('.')) {
    const scripts = mixedScripts(label);
    if (scripts) return `${shown} mixes scripts in one label (${scripts.join(' and ')}): the mark of a look-alike domain`;
  }
  const target = lookAlikeOf(unicode, familiar);
  if (target !== undefined && target !== ascii) return `${shown} looks like ${target} (a homograph of a webmail or well-known domain)`;
  const asciiTwin = unicode.split('.').map(latinTwin);
  if (asciiTwin.some((twin) => twin !== null)) {
    const twin = unicode.split('.').map((label, index) => asciiTwin[index] ?? label).join('.');
    return `${shown} looks like the ASCII name ${twin} (a homograph); write ${twin} if you mean it`;
  }
  return null;
}

/** UTS #39 skeleton: NFD, each character through confusables.txt, NFD again. */
export function skeleton(text: string): string {
  let out = '';
  for (const char of text.normalize('NFD')) out += CONFUSABLE[char] ?? char;
  return out.normalize('NFD');
}

/** @returns the scripts a label mixes, or null when one script (augmented) covers it. */
function mixedScripts(label: string): string[] | null {
  let common: Set<string> | null = null;
  const seen = new Set<string>();
  for (const char of label) {
    const scripts = scriptsOf(char);
    if (scripts === null) continue;
    seen.add(scripts[0] as string);
    common = common === null ? new Set(scripts) : new Set(scripts.filter((script) => common?.has(script)));
    if (common.size === 0) return [...seen];
  }
  return null;
}

/** @returns the (augmented) scripts of a character; null for Common and Inherited ones (digits, `-`, marks). */
function scriptsOf(char: string): string[] | null {
  if (/[\p{scx=Zyyy}\p{scx=Zinh}]/u.test(char)) return null;
  scriptTests ??= SCRIPTS.map((name) => ({ name, test: new RegExp(`\\p{scx=${name}}`, 'u') }));
  const found = scriptTests.filter(({ test }) => test.test(char)).map(({ name }) => name);
  if (found.length === 0) return /\p{L}/u.test(char) ? ['Other'] : null;
  return [...found, ...found.flatMap((name) => AUGMENTED[name] ?? [])];
}

function lookAlikeOf(unicode: string, familiar: () => Iterable<string>): string | undefined {
  if (!lookAlikes) {
    lookAlikes = new Map();
    for (const domain of [...WELL_KNOWN, ...familiar()]) {
      const key = skeleton(domainToUnicode(domain) || domain);
      if (!lookAlikes.has(key)) lookAlikes.set(key, domain);
    }
  }
  return lookAlikes.get(skeleton(unicode));
}

/** @returns the ASCII label a non-ASCII Latin label cannot be told from, or null. */
function latinTwin(label: string): string | null {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/u.test(label) || !/\p{scx=Latin}/u.test(label)) return null;
  // ASCII letters are kept as they are, so the twin reads as a name (a skeleton spells m as rn).
  let twin = '';
  for (const char of label.normalize('NFD')) twin += char.charCodeAt(0) < 0x80 ? char : (CONFUSABLE[char] ?? char);
  // eslint-disable-next-line no-control-regex
  return /^[\x00-\x7f]+$/u.test(twin) ? twin : null;
}
