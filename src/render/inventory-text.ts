/**
 * The forms of inventory and who (their rows: src/governance/inventory-rows.ts, through the
 * command layer): a table of rows as CSV (RFC 4180) or markdown, who's answers as text; every
 * cell escaped, nothing from a file interpreted. CSV cells that a spreadsheet would read as a
 * formula are neutralised: the cells come from policy files anyone can send a pull request to.
 */
import { escapeControls, escapeMarkdown } from '../escape.js';
import { showDomain } from './describe.js';

/** @returns the rows as a markdown table of `columns`, in their order (cells escaped: `|`, markup, controls). */
export function renderMarkdownTable<Row extends object>(columns: readonly Extract<keyof Row, string>[], rows: readonly Row[]): string {
  const head = `| ${columns.join(' | ')} |\n|${columns.map(() => '---').join('|')}|\n`;
  const body = rows.map((row) => `| ${columns.map((column) => escapeMarkdown(String(row[column] ?? ''))).join(' | ')} |\n`).join('');
  return head + body;
}

/** What who's text shows of an answer: the domain, and each scope admitting it with its file:line (and, with --live, whether the service lists it). */
export interface WhoShown {
  domain: string;
  scopes: readonly { key: string; scopeName?: string; file: string; line: number; expires?: string; live?: boolean }[];
}

/**
 * @returns `who` as text: per domain, each scope admitting it with its file:line.
 * @param shown names a file as the reader should see it (the CLI: from the working directory); default: as the answer names it
 */
export function renderWhoText(answers: readonly WhoShown[], live: boolean, shown: (file: string) => string = (file) => file): string {
  return answers
    .map((answer) => {
      const head = `${showDomain(answer.domain)}: ${answer.scopes.length === 0 ? 'no scope admits it' : `${answer.scopes.length} ${answer.scopes.length === 1 ? 'scope' : 'scopes'}`}`;
      const lines = answer.scopes.map((scope) => {
        const name = scope.scopeName === undefined ? '' : ` (${scope.scopeName})`;
        const expires = scope.expires === undefined ? '' : `  expires ${scope.expires}`;
        const service = !live ? '' : scope.live ? '  live: yes' : '  live: NO (the service does not list it)';
        return `  ${escapeControls(`${scope.key}${name}  ${shown(scope.file)}:${scope.line}${expires}`)}${service}`;
      });
      return [head, ...lines].join('\n');
    })
    .join('\n')
    .concat('\n');
}

/** @returns the rows as CSV of `columns`: a header row, CRLF line ends, every cell quoted when it needs to be. */
export function renderCsv<Row extends object>(columns: readonly Extract<keyof Row, string>[], rows: readonly Row[]): string {
  const lines = [columns.map(csvCell), ...rows.map((row) => columns.map((column) => csvCell(String(row[column] ?? ''))))];
  return lines.map((cells) => `${cells.join(',')}\r\n`).join('');
}

// A cell starting with one of these is a formula to Excel, LibreOffice and Google Sheets (OWASP "CSV injection").
const FORMULA_START = /^[=+\-@\t\r]/;

/** @returns one CSV cell: formula-like text prefixed with `'`, then quoted (RFC 4180) when it holds `"`, `,`, CR or LF. */
export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
