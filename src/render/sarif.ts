/**
 * `validate --format sarif` and the action's `sarif-file`: the diagnostics as one SARIF 2.1.0 log
 * in the subset GitHub code scanning documents ("SARIF support for code scanning"): one rule per
 * check (the diagnostic's code) and one per governance rule of the project file (`rule/NAME`),
 * each result with its level, its file as a URI relative to the repository root (`%SRCROOT%`), a
 * region from line 1 and column 1, and `partialFingerprints` that survive lines moving; at most
 * 25,000 results a run (code scanning's limit), errors kept before warnings, the last result then
 * saying how many were cut.
 */
import { createHash } from 'node:crypto';
import type { Diagnostic } from '../policy/types.js';
import { CHECK_DESCRIPTIONS } from './sarif-rules.js';

/** Code scanning takes at most this many results a run. */
export const SARIF_MAX_RESULTS = 25_000;

/** The rule of the last result when results were cut. */
export const RESULTS_CUT_RULE = 'results-cut';

/** Where the SARIF 2.1.0 schema lives (OASIS, as schemastore serves it). */
export const SARIF_SCHEMA_URI = 'https://json.schemastore.org/sarif-2.1.0.json';

/** The key of our own partial fingerprint: stable while the finding's file, rule and message stay. */
export const FINGERPRINT_KEY = 'autojoinSyncFinding/v1';

export interface SarifOptions {
  /** The tool's version (package.json). */
  version: string;
  /** At most this many results (default {@link SARIF_MAX_RESULTS}); for tests. */
  maxResults?: number;
}

interface SarifRule {
  id: string;
  name: string;
  shortDescription: { text: string };
  fullDescription: { text: string };
  defaultConfiguration: { level: 'error' | 'warning' | 'note' };
  properties: { tags: string[] };
}

/**
 * @param diagnostics every finding, each file named relative to the repository root (posix)
 * @returns the SARIF log as JSON text
 */
export function renderSarif(diagnostics: readonly Diagnostic[], options: SarifOptions): string {
  const max = Math.max(1, options.maxResults ?? SARIF_MAX_RESULTS);
  const ordered = [...diagnostics.filter((d) => d.severity === 'error'), ...diagnostics.filter((d) => d.severity !== 'error')];
  const kept = ordered.length > max ? ordered.slice(0, max - 1) : ordered;
  const rules = new Map<string, SarifRule>();
  const seen = new Map<string, number>();
  const results = kept.map((diagnostic) => {
    const rule = ruleOf(diagnostic, rules);
    return result(diagnostic, rule, indexOf(rules, rule.id), seen);
  });
  const cut = ordered.length - kept.length;
  if (cut > 0) {
    const rule = cutRule(rules);
    const first = ordered[kept.length] as Diagnostic;
    const message = `${cut} more findings were cut: code scanning takes at most ${max} results a run; run autojoin-sync validate to see them all`;
    results.push(result({ ...first, severity: 'warning', message }, rule, indexOf(rules, rule.id), seen));
  }
  const driver = { name: 'autojoin-sync', version: options.version, semanticVersion: options.version, rules: [...rules.values()] };
  const run = { tool: { driver }, columnKind: 'utf16CodeUnits', results, properties: { resultsCut: cut } };
  return `${JSON.stringify({ $schema: SARIF_SCHEMA_URI, version: '2.1.0', runs: [run] }, null, 2)}\n`;
}

/** The governance rule a finding names (`rule "NAME": …`, src/governance), else null. */
export function governanceRuleOf(diagnostic: Pick<Diagnostic, 'code' | 'message'>): string | null {
  if (!diagnostic.code.startsWith('rule-') && diagnostic.code !== 'invalid-rule') return null;
  const match = /^rule "((?:[^"\\]|\\.)*)": /u.exec(diagnostic.message);
  return match ? (match[1] as string) : null;
}

function ruleOf(diagnostic: Diagnostic, rules: Map<string, SarifRule>): SarifRule {
  const governance = governanceRuleOf(diagnostic);
  const id = governance === null ? diagnostic.code : `rule/${governance}`;
  const known = rules.get(id);
  if (known) return known;
  const made: SarifRule =
    governance === null
      ? {
          id,
          name: pascal(id),
          shortDescription: { text: CHECK_DESCRIPTIONS[id] ?? `autojoin-sync check ${id}` },
          fullDescription: { text: `${CHECK_DESCRIPTIONS[id] ?? `autojoin-sync check ${id}`} (autojoin-sync check \`${id}\`).` },
          defaultConfiguration: { level: diagnostic.severity },
          properties: { tags: ['autojoin-sync', 'policy-file'] },
        }
      : {
          id,
          name: `GovernanceRule${pascal(governance)}`,
          shortDescription: { text: `Governance rule "${governance}" of autojoin-sync.yaml` },
          fullDescription: { text: `Findings of the rule named "${governance}" under rules: in autojoin-sync.yaml (allow, deny, require, expiry and scope limits).` },
          defaultConfiguration: { level: diagnostic.severity },
          properties: { tags: ['autojoin-sync', 'governance'] },
        };
  rules.set(id, made);
  return made;
}

/** Rules are added in order and never removed, so a rule's index is its place among the keys; kept beside the map. */
const indexes = new WeakMap<Map<string, SarifRule>, Map<string, number>>();

function indexOf(rules: Map<string, SarifRule>, id: string): number {
  let known = indexes.get(rules);
  if (!known) indexes.set(rules, (known = new Map<string, number>()));
  if (!known.has(id)) known.set(id, known.size);
  return known.get(id) as number;
}

function cutRule(rules: Map<string, SarifRule>): SarifRule {
  const text = 'More findings than code scanning takes in one run; the last result says how many were left out';
  const rule: SarifRule = {
    id: RESULTS_CUT_RULE,
    name: 'ResultsCut',
    shortDescription: { text },
    fullDescription: { text: `${text}. Run autojoin-sync validate to see every finding.` },
    defaultConfiguration: { level: 'warning' },
    properties: { tags: ['autojoin-sync'] },
  };
  rules.set(rule.id, rule);
  return rule;
}

function result(diagnostic: Diagnostic, rule: SarifRule, ruleIndex: number, seen: Map<string, number>): Record<string, unknown> {
  const uri = fileUri(diagnostic.file);
  const key = `${rule.id}\u0000${uri}\u0000${diagnostic.message}`;
  const occurrence = (seen.get(key) ?? 0) + 1;
  seen.set(key, occurrence);
  const fingerprint = createHash('sha256').update(key).digest('hex').slice(0, 32);
  return {
    ruleId: rule.id,
    ruleIndex,
    level: diagnostic.severity,
    message: { text: diagnostic.message },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri, uriBaseId: '%SRCROOT%' },
          region: { startLine: Math.max(1, Math.trunc(diagnostic.line)), startColumn: Math.max(1, Math.trunc(diagnostic.column)) },
        },
      },
    ],
    partialFingerprints: { [FINGERPRINT_KEY]: `${fingerprint}:${occurrence}` },
  };
}

/** A file named relative to the repository root as a relative URI reference: posix separators, each segment percent-encoded. */
export function fileUri(file: string): string {
  const posix = file.replace(/\\/gu, '/').replace(/^\.\//u, '');
  return posix.split('/').map((segment) => (segment === '..' || segment === '.' ? segment : encodeURIComponent(segment))).join('/');
}

function pascal(text: string): string {
  const words = text.split(/[^A-Za-z0-9]+/u).filter(Boolean);
  return words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('') || 'Rule';
}
