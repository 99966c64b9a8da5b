/**
 * One policy document → its policy: defaults from the project file filled in, the schema, the
 * scope's text, the domains (each checked, duplicates after normalization), expiry and the
 * project's rules; the policy is built only when the document has no error. The loader
 * (load.ts) runs this for every document of every file.
 */
import { memoized } from '../memo.js';
import { scopeKey } from '../scope.js';
import { checkDomain, findingMessage } from './domains.js';
import { diagnosticAt } from './format.js';
import type { Declaration } from './lint.js';
import { locate } from './locate.js';
import type { ParsedDocument } from './parse.js';
import { schemaDiagnostics } from './schema.js';
import { scopeTextDiagnostics } from './scope-text.js';
import type { Diagnostic, Policy, ProjectConfig, SourcePos } from './types.js';
import { expiredOf, expiryDiagnostics, isExpired, placedEntries, ruleSubject, writtenEntries, type WrittenEntry } from './entries.js';
import type { Governance } from './rule-check.js';
import { isPlainObject } from '../plain-object.js';

export interface PolicyReading {
  declaration?: Declaration;
  policy?: Policy;
  diagnostics: Diagnostic[];
}

/**
 * @returns a function giving one copy of each distinct string: thousands of policies name the same
 * scopeType and componentId, and each parse makes its own copy
 */
export function createInterner(): (value: string) => string {
  return memoized((value) => value);
}

/** What reading a document needs besides the document. */
export interface Reading {
  project: ProjectConfig;
  same: (value: string) => string;
  today: string;
  entries: boolean;
  governance: Governance | null;
}

/** Checks one document (defaults filled in first) and builds its policy when it has no error. */
export function readPolicy(parsed: ParsedDocument, reading: Reading): PolicyReading {
  const { same } = reading;
  const data = withDefaults(parsed.data, reading.project);
  const written = writtenEntries(data.domains);
  const at = (index: number): SourcePos => locate(parsed, ['domains', index]);
  // The document's own scope and scopeType: a default from the project file is checked there, once.
  const diagnostics = [
    ...schemaDiagnostics('policy', parsed, data),
    ...scopeTextDiagnostics(parsed, SCOPE_PATHS),
    ...domainDiagnostics(written, at),
    ...expiryDiagnostics(written, reading.today, at),
  ];
  const { scope, scopeType } = data;
  const declaration =
    typeof scope === 'string' && typeof scopeType === 'string' && scope !== '' && scopeType !== ''
      ? { key: scopeKey({ scopeType: same(scopeType), scope }), source: parsed.start }
      : undefined;
  if (!declaration || diagnostics.some((d) => d.severity === 'error')) return { declaration, diagnostics };
  const desired = written.filter((entry) => !isExpired(entry, reading.today));
  const policy: Policy = {
    key: declaration.key,
    scope: scope as string,
    scopeType: same(scopeType as string),
    componentId: same(data.componentId as string),
    domains: [...new Set(desired.map((entry) => entry.domain))].sort(),
    source: parsed.start,
    explicitEmpty: desired.length === 0,
  };
  // Set after, not spread into the literal: V8 sizes a literal for its spreads as well (112 bytes
  // a policy, not 80), and a loader far ahead of the reads holds thousands of policies.
  if (typeof data.scopeName === 'string') policy.scopeName = data.scopeName;
  if (isPlainObject(data.metadata)) policy.metadata = data.metadata;
  const { expired } = expiredOf(written, reading.today);
  if (expired !== undefined) policy.expired = expired;
  if (data.drift === 'keep' || data.drift === 'revert') policy.drift = data.drift;
  if (reading.entries) policy.entries = placedEntries(written, reading.today, at);
  if (!reading.governance) return { declaration, policy, diagnostics };
  const place = (where: number | 'domains'): SourcePos => (where === 'domains' ? locate(parsed, ['domains'], 'key') : at(where));
  const findings = reading.governance.check(ruleSubject(policy.key, desired, place, Array.isArray(data.domains) && data.domains.length === 0));
  diagnostics.push(...findings);
  // A rule's error keeps the policy from being planned, as any other error does.
  return findings.some((d) => d.severity === 'error') ? { declaration, diagnostics } : { declaration, policy, diagnostics };
}

const SCOPE_PATHS = [['scope'], ['scopeType']] as const;

// Literals rather than spreading a defaults object built key by key: the same object, ~10× faster in V8.
// Without a default, a key the document leaves out stays out: the schema reports it missing.
function withDefaults(data: Record<string, unknown>, project: ProjectConfig): Record<string, unknown> {
  const { scopeType, componentId } = project.defaults ?? {};
  if (scopeType === undefined) return componentId === undefined ? data : { componentId, ...data };
  return componentId === undefined ? { scopeType, ...data } : { scopeType, componentId, ...data };
}

/**
 * Per-domain checks, then duplicates after normalization (an error at every occurrence).
 * A domain is located in the file only when there is something to report: most are fine.
 */
function domainDiagnostics(entries: readonly WrittenEntry[], at: (index: number) => SourcePos): Diagnostic[] {
  const seen = new Map<string, number[]>();
  for (const { index, domain: normalized } of entries) {
    if (normalized === '') continue;
    const indexes = seen.get(normalized);
    if (indexes) indexes.push(index);
    else seen.set(normalized, [index]);
  }
  const diagnostics: Diagnostic[] = [];
  for (const { raw, index } of entries) {
    for (const finding of checkDomain(raw)) diagnostics.push(diagnosticAt(at(index), finding.severity, finding.code, findingMessage(finding, seen)));
  }
  for (const [domain, indexes] of seen) {
    if (indexes.length > 1) diagnostics.push(...duplicateDomainDiagnostics(domain, indexes.map(at)));
  }
  return diagnostics;
}

function duplicateDomainDiagnostics(domain: string, positions: readonly SourcePos[]): Diagnostic[] {
  return positions.map((pos) => {
    const others = positions.filter((other) => other !== pos).map((other) => other.line);
    const message = `duplicate domain ${domain} (also at ${others.length > 1 ? 'lines' : 'line'} ${others.join(', ')})`;
    return diagnosticAt(pos, 'error', 'duplicate-domain', message);
  });
}
