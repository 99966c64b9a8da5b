/**
 * The list of every command and flag in docs/cli.md, generated from the command tree itself (all
 * commands loaded), with each option's description, choices and default as `--help` prints them:
 *   npm run docs:cli        rewrites the list between docs/cli.md's cli-flags markers
 * test/docs/reference.test.ts fails when the page and the program differ.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { Help, type Command } from 'commander';
import { buildProgram } from '../src/cli/program.js';

export const CLI_DOC = new URL('../docs/cli.md', import.meta.url);
const START = '<!-- cli-flags -->';
const END = '<!-- /cli-flags -->';

/** A markdown table cell: no line breaks, pipes escaped. */
const cell = (text: string): string => text.replace(/\s*\n\s*/gu, ' ').replaceAll('|', '\\|');

/** The markdown of one command: its usage, its description's first line, and its options. */
function commandSection(command: Command, help: Help): string {
  const lines = [`### \`${help.commandUsage(command)}\``, '', cell(help.commandDescription(command).split('\n')[0] ?? '')];
  const options = help.visibleOptions(command).filter((option) => option.long !== '--help');
  if (options.length > 0) {
    lines.push('', '| option | meaning (default) |', '|---|---|');
    for (const option of options) lines.push(`| \`${help.optionTerm(option)}\` | ${cell(help.optionDescription(option))} |`);
  }
  return lines.join('\n');
}

/** Every command under `command`, depth first. */
function commandsUnder(command: Command): Command[] {
  return command.commands.flatMap((sub) => [sub, ...commandsUnder(sub)]);
}

/** @returns the generated list (without its markers) */
export async function cliReference(): Promise<string> {
  const program = await buildProgram(['node', 'autojoin-sync'], true);
  const help = new Help();
  const sections = [program, ...commandsUnder(program)].map((command) => commandSection(command, help));
  return `${sections.join('\n\n')}\n`;
}

/** @returns the text between the markers of docs/cli.md */
export function generatedPart(page: string): string {
  const start = page.indexOf(START);
  const end = page.indexOf(END);
  if (start === -1 || end < start) throw new Error(`docs/cli.md has no ${START} … ${END} markers`);
  return page.slice(start + START.length + 1, end);
}

async function main(): Promise<void> {
  const page = await readFile(CLI_DOC, 'utf8');
  const start = page.indexOf(START) + START.length + 1;
  await writeFile(CLI_DOC, page.slice(0, start) + (await cliReference()) + page.slice(page.indexOf(END)));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
