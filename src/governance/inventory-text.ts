/** Markdown and text forms of inventory and who: every cell escaped, nothing from a file interpreted. */
import { escapeControls, escapeMarkdown, showDomain } from '../render/index.js';
import { BLAME_COLUMNS, INVENTORY_COLUMNS, type BlamedRow, type WhoAnswer } from './inventory-rows.js';

/** @returns the rows as a markdown table (cells escaped: `|`, markup, controls). */
export function renderInventoryMarkdown(rows: readonly BlamedRow[], blame: boolean): string {
  const columns: readonly string[] = blame ? [...INVENTORY_COLUMNS, ...BLAME_COLUMNS] : INVENTORY_COLUMNS;
  const head = `| ${columns.join(' | ')} |\n|${columns.map(() => '---').join('|')}|\n`;
  const body = rows.map((row) => `| ${columns.map((column) => escapeMarkdown(String(row[column as keyof BlamedRow] ?? ''))).join(' | ')} |\n`).join('');
  return head + body;
}

/** @returns `who` as text: per domain, each scope admitting it with its file:line. */
export function renderWhoText(answers: readonly WhoAnswer[], live: boolean): string {
  return answers
    .map((answer) => {
      const head = `${showDomain(answer.domain)}: ${answer.scopes.length === 0 ? 'no scope admits it' : `${answer.scopes.length} ${answer.scopes.length === 1 ? 'scope' : 'scopes'}`}`;
      const lines = answer.scopes.map((scope) => {
        const name = scope.scopeName === undefined ? '' : ` (${scope.scopeName})`;
        const expires = scope.expires === undefined ? '' : `  expires ${scope.expires}`;
        const service = !live ? '' : scope.live ? '  live: yes' : '  live: NO (the service does not list it)';
        return `  ${escapeControls(`${scope.key}${name}  ${scope.file}:${scope.line}${expires}`)}${service}`;
      });
      return [head, ...lines].join('\n');
    })
    .join('\n')
    .concat('\n');
}
