/**
 * Fits markdown into a size limit (a PR comment must stay under 65,536 characters): the
 * head always stays, then as many blocks as fit, preferring the ones ranked first, shown
 * in their original order, then a note saying how many were left out.
 */
import { cutText } from '../redact.js';

export interface BoundedInput {
  head: string;
  /** Blocks in display order. */
  blocks: string[];
  /** Indices into `blocks`, most wanted first. */
  preference: number[];
  /** Between the head and the first block and between blocks (default a blank line; `\n` for table rows). */
  blockSeparator?: string;
  footer?: string;
  maxChars: number;
  /** The note for `omitted` left-out blocks; its length must not grow as `omitted` shrinks. */
  omittedNote: (omitted: number) => string;
}

const PARAGRAPH = '\n\n';

/** @returns the joined document, ending in a newline, never longer than `maxChars`. */
export function joinBounded(input: BoundedInput): string {
  const separator = input.blockSeparator ?? PARAGRAPH;
  const full = assemble(input, input.blocks, undefined);
  if (full.length <= input.maxChars) return full;
  let budget = input.maxChars - assemble(input, [], input.omittedNote(input.blocks.length)).length;
  const kept = new Set<number>();
  for (const index of input.preference) {
    const cost = (input.blocks[index] ?? '').length + separator.length;
    if (cost > budget) continue;
    kept.add(index);
    budget -= cost;
  }
  const shown = input.blocks.filter((_, index) => kept.has(index));
  const text = assemble(input, shown, input.omittedNote(input.blocks.length - shown.length));
  // Only a head and footer longer than the limit by themselves can get here.
  return text.length <= input.maxChars ? text : cutText(text, input.maxChars);
}

function assemble(input: BoundedInput, blocks: string[], note: string | undefined): string {
  const separator = input.blockSeparator ?? PARAGRAPH;
  let text = input.head + blocks.map((block) => separator + block).join('');
  if (note !== undefined) text += PARAGRAPH + note;
  if (input.footer) text += PARAGRAPH + input.footer;
  return `${text}\n`;
}
