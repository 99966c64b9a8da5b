/**
 * Text from policy files and the service (scope names, keys, reasons) goes into PR
 * comments. It is escaped as numeric HTML entities, which read the same inside raw HTML
 * (`<summary>`), table cells and plain markdown, so no name can inject markup, links,
 * emphasis, table cells or @-mentions.
 */
const SPECIAL = /[&<>"'`*_[\]|~#@\\]/g;

/** @returns the text safe to place in markdown or HTML. */
export function escapeMarkdown(text: string): string {
  return text.replace(SPECIAL, (char) => `&#${char.charCodeAt(0)};`).replace(/[\r\n]+/g, ' ');
}

/** @returns a code fence longer than any backtick run in the content (at least three). */
export function fenceFor(content: string): string {
  const longest = Math.max(0, ...(content.match(/`+/g) ?? []).map((run) => run.length));
  return '`'.repeat(Math.max(3, longest + 1));
}
