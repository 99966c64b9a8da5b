/**
 * Where a DNS finding stands: at each domain entry that lists the domain. Policies keep only
 * their document's start, and most domains have no finding, so only the files with a finding are
 * read again and their entries located, as the loader locates a domain it reports.
 */
import path from 'node:path';
import { diagnosticAt } from '../policy/format.js';
import { readPolicySources } from '../policy/load.js';
import { locate } from '../policy/locate.js';
import { parsePolicyText } from '../policy/plain.js';
import { normalizeDomain } from '../policy/domains.js';
import type { ParsedDocument } from '../policy/parse.js';
import type { Diagnostic, Policy, SourcePos } from '../policy/types.js';
import type { DnsFinding } from './types.js';

/**
 * @param findings by normalized domain
 * @returns one diagnostic per finding and entry; at the policy's document when its entry cannot be found again
 */
export async function placeFindings(policies: readonly Policy[], findings: ReadonlyMap<string, readonly DnsFinding[]>, cwd: string): Promise<Diagnostic[]> {
  const affected = policies.filter((policy) => policy.domains.some((domain) => findings.has(domain)));
  const documents = await documentsOf(affected, cwd);
  const diagnostics: Diagnostic[] = [];
  for (const policy of affected) {
    const entries = entryPositions(documents.get(startKey(policy.source)), findings);
    for (const domain of policy.domains) {
      for (const finding of findings.get(domain) ?? []) {
        diagnostics.push(diagnosticAt(entries.get(domain) ?? policy.source, finding.severity, finding.code, finding.message));
      }
    }
  }
  return diagnostics;
}

/** The parsed documents of the policies' files, by where each starts. */
async function documentsOf(policies: readonly Policy[], cwd: string): Promise<Map<string, ParsedDocument>> {
  const files = [...new Set(policies.map((policy) => policy.source.file))];
  const { sources } = await readPolicySources(files.map((file) => path.resolve(cwd, file)), cwd);
  const documents = new Map<string, ParsedDocument>();
  for (const source of sources) {
    for (const document of parsePolicyText(source).documents) documents.set(startKey(document.start), document);
  }
  return documents;
}

function startKey(pos: SourcePos): string {
  return `${pos.file}\u0000${pos.line}\u0000${pos.column}`;
}

/** @returns where each domain with a finding (normalized) is first listed in the document's `domains`. */
function entryPositions(document: ParsedDocument | undefined, findings: ReadonlyMap<string, unknown>): Map<string, SourcePos> {
  const positions = new Map<string, SourcePos>();
  const entries = document?.data.domains;
  if (!document || !Array.isArray(entries)) return positions;
  entries.forEach((entry: unknown, index) => {
    const raw = domainOf(entry);
    if (raw === undefined) return;
    const domain = normalizeDomain(raw);
    if (findings.has(domain) && !positions.has(domain)) positions.set(domain, locate(document, ['domains', index]));
  });
  return positions;
}

/** A domain entry is the domain itself, or a mapping that names it under `domain`. */
function domainOf(entry: unknown): string | undefined {
  if (typeof entry === 'string') return entry;
  const named = (entry as { domain?: unknown } | null)?.domain;
  return typeof named === 'string' ? named : undefined;
}
