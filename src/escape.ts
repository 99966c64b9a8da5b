/**
 * Text from policy files and the service (scope names, keys, reasons) goes into PR
 * comments. It is escaped as numeric HTML entities, which read the same inside raw HTML
 * (`<summary>`), table cells and plain markdown, so no name can inject markup, links,
 * emphasis, table cells, @-mentions or (a URL's `://` and `www.` broken the same way) autolinks.
 */
const SPECIAL = /[&<>"'`*_[\]|~#@\\]/g;

/**
 * What GitHub turns into a link with no markup (its autolink extension): a scheme's `://`, and
 * `www.`. It looks for them in the text as written, so one character of each written as an
 * entity (`https&#58;//`, `www&#46;`) leaves a URL that came from data as plain text.
 */
const AUTOLINK = /(?<=[a-z0-9])(:)(?=\/\/)|(?<=\bwww)(\.)/giu;

/** @returns the text safe to place in markdown or HTML: no markup, no mention, no link (a URL from data is inert). */
export function escapeMarkdown(text: string): string {
  return escapeControls(text.replace(/[\r\n]+/g, ' '))
    .replace(SPECIAL, (char) => `&#${char.charCodeAt(0)};`)
    .replace(AUTOLINK, (char) => `&#${char.charCodeAt(0)};`);
}

/** @returns a code fence longer than any backtick run in the content (at least three). */
export function fenceFor(content: string): string {
  const longest = Math.max(0, ...(content.match(/`+/g) ?? []).map((run) => run.length));
  return '`'.repeat(Math.max(3, longest + 1));
}

/**
 * Characters never printed as they are: controls (C0, C1, DEL), format characters (bidi
 * overrides and isolates, zero-width joiners, soft hyphen), line and paragraph separators,
 * lone surrogates. One ESC is enough to erase a plan above a `[y/N]` prompt; one U+202E
 * makes a domain read backwards.
 */
const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

/**
 * The one escaping step for text from files and from the service before it reaches a
 * terminal, a log or a comment: each non-printable character becomes `\xNN` or `\u{NNNN}`.
 * @param keepNewlines leave `\n` as it is (multi-line messages built by this tool)
 */
export function escapeControls(text: string, keepNewlines = false): string {
  return text.replace(NON_PRINTABLE, (char) => {
    if (keepNewlines && char === '\n') return char;
    const code = char.codePointAt(0) ?? 0;
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
  });
}
