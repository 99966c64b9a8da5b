/** Checks across documents and files: one scope may be declared only once. */
import { diagnosticNaming } from './format.js';
import type { ScopeKey } from '../scope.js';
import type { Diagnostic, MessagePart, SourcePos } from './types.js';

/** A scope declared somewhere, with where its document starts. */
export interface Declaration {
  key: ScopeKey;
  source: SourcePos;
}

/** @returns an error at every declaration of a scope declared more than once, naming the others. */
export function duplicateScopeDiagnostics(declarations: readonly Declaration[]): Diagnostic[] {
  const byKey = new Map<ScopeKey, Declaration[]>();
  for (const declaration of declarations) {
    const list = byKey.get(declaration.key) ?? [];
    list.push(declaration);
    byKey.set(declaration.key, list);
  }
  const diagnostics: Diagnostic[] = [];
  for (const [key, list] of byKey) {
    if (list.length < 2) continue;
    for (const declaration of list) {
      const others = list.filter((other) => other !== declaration).map((other) => place(other.source));
      const parts = [`duplicate scope ${key}: also declared at `, ...joined(others, ', '), '; a scope may have only one policy'];
      diagnostics.push(diagnosticNaming(declaration.source, 'error', 'duplicate-scope', parts));
    }
  }
  return diagnostics;
}

function place(pos: SourcePos): MessagePart {
  return { file: pos.file, line: pos.line, column: pos.column };
}

/** `items` with `separator` between them. */
function joined(items: readonly MessagePart[], separator: string): MessagePart[] {
  return items.flatMap((item, index) => (index === 0 ? [item] : [separator, item]));
}
