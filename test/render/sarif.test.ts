/**
 * `renderSarif` (src/render/sarif.ts): SARIF 2.1.0 checked against the OASIS schema (from the npm
 * package @microsoft/jest-sarif, see test/support/sarif.ts) and GitHub code scanning's documented
 * subset: rules per check and per governance rule, relative URIs, regions from line 1,
 * partialFingerprints, at most 25,000 results with the last one saying how many were cut.
 */
import { describe, expect, it } from 'vitest';
import { governanceRuleOf, renderSarif, RESULTS_CUT_RULE, SARIF_MAX_RESULTS } from '../../src/render/sarif.js';
import type { Diagnostic } from '../../src/policy/types.js';
import { githubSubsetProblems, sarifSchemaValidator, SARIF_SCHEMA_SOURCE } from '../support/sarif.js';

interface Log {
  version: string;
  runs: {
    tool: { driver: { rules: { id: string; defaultConfiguration: { level: string } }[] } };
    results: {
      ruleId: string;
      ruleIndex: number;
      level: string;
      message: { text: string };
      locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId: string }; region: { startLine: number; startColumn: number } } }[];
      partialFingerprints: Record<string, string>;
    }[];
    properties: { resultsCut: number };
  }[];
}

const FINDINGS: Diagnostic[] = [
  { file: 'policies/eng.autojoin.yaml', line: 5, column: 5, severity: 'error', code: 'webmail-domain', message: 'gmail.com is a webmail domain' },
  { file: 'policies/eng.autojoin.yaml', line: 6, column: 5, severity: 'warning', code: 'subdomain', message: 'mail.acme.com is a subdomain' },
  { file: 'policies/team a/x#1.autojoin.yaml', line: 0, column: 0, severity: 'error', code: 'yaml-syntax', message: 'bad YAML' },
  { file: 'policies/eng.autojoin.yaml', line: 7, column: 5, severity: 'error', code: 'rule-deny', message: 'rule "no-contractors": contractor.io is denied in team/eng (matches *.io)' },
  { file: 'policies/ops.autojoin.yaml', line: 4, column: 5, severity: 'warning', code: 'rule-require', message: 'rule "keep-acme": team/ops must list acme.com' },
  { file: 'policies/ops.autojoin.yaml', line: 9, column: 5, severity: 'error', code: 'rule-allow', message: 'rule "no-contractors": x.com is not allowed in team/ops' },
];

function parse(text: string): Log {
  return JSON.parse(text) as Log;
}

describe('renderSarif', () => {
  it(`is valid against the OASIS SARIF 2.1.0 schema (${SARIF_SCHEMA_SOURCE}) and keeps to GitHub's subset`, () => {
    const text = renderSarif(FINDINGS, { version: '1.2.3' });
    const validate = sarifSchemaValidator();
    expect(validate(JSON.parse(text)), JSON.stringify(validate.errors)).toBe(true);
    expect(githubSubsetProblems(JSON.parse(text))).toEqual([]);
  });

  it('the OASIS schema check can fail: a result without a message is refused', () => {
    const log = parse(renderSarif(FINDINGS, { version: '1.2.3' })) as unknown as { runs: { results: { message?: unknown }[] }[] };
    delete log.runs[0]?.results[0]?.message;
    expect(sarifSchemaValidator()(log)).toBe(false);
    expect(githubSubsetProblems(log)).toContain('run 0 result 0: no message text');
  });

  it('has one rule per check and one per governance rule, each result pointing at its rule', () => {
    const log = parse(renderSarif(FINDINGS, { version: '1.2.3' }));
    const run = log.runs[0];
    const ids = run?.tool.driver.rules.map((rule) => rule.id);
    expect(ids).toEqual(['webmail-domain', 'yaml-syntax', 'rule/no-contractors', 'subdomain', 'rule/keep-acme']);
    for (const result of run?.results ?? []) expect(ids?.[result.ruleIndex]).toBe(result.ruleId);
    expect(run?.results.map((result) => [result.ruleId, result.level])).toEqual([
      ['webmail-domain', 'error'],
      ['yaml-syntax', 'error'],
      ['rule/no-contractors', 'error'],
      ['rule/no-contractors', 'error'],
      ['subdomain', 'warning'],
      ['rule/keep-acme', 'warning'],
    ]);
  });

  it('names files by URIs relative to the repository root, percent-encoded, with regions from line 1 and column 1', () => {
    const log = parse(renderSarif(FINDINGS, { version: '1.2.3' }));
    const locations = log.runs[0]?.results.map((result) => result.locations[0]?.physicalLocation);
    expect(locations?.[0]).toEqual({ artifactLocation: { uri: 'policies/eng.autojoin.yaml', uriBaseId: '%SRCROOT%' }, region: { startLine: 5, startColumn: 5 } });
    // A finding about a whole file (line 0) is placed at its first line.
    expect(locations?.[1]).toEqual({ artifactLocation: { uri: 'policies/team%20a/x%231.autojoin.yaml', uriBaseId: '%SRCROOT%' }, region: { startLine: 1, startColumn: 1 } });
  });

  it('gives each finding a partial fingerprint that survives lines moving and tells repeats apart', () => {
    const before = parse(renderSarif(FINDINGS, { version: '1' })).runs[0]?.results[0]?.partialFingerprints;
    const moved = parse(renderSarif([{ ...(FINDINGS[0] as Diagnostic), line: 40 }], { version: '1' })).runs[0]?.results[0]?.partialFingerprints;
    expect(moved).toEqual(before);
    const twice = parse(renderSarif([FINDINGS[0] as Diagnostic, FINDINGS[0] as Diagnostic], { version: '1' })).runs[0]?.results;
    expect(twice?.[0]?.partialFingerprints).not.toEqual(twice?.[1]?.partialFingerprints);
  });

  it('keeps at most 25,000 results a run, errors before warnings, the last saying how many were cut', () => {
    const many: Diagnostic[] = Array.from({ length: SARIF_MAX_RESULTS + 10 }, (_, i) => ({
      file: `policies/p${i % 97}.autojoin.yaml`,
      line: (i % 50) + 1,
      column: 5,
      severity: i % 2 === 0 ? 'warning' : 'error',
      code: i % 2 === 0 ? 'subdomain' : 'webmail-domain',
      message: `finding ${i}`,
    }));
    const log = parse(renderSarif(many, { version: '1' }));
    const results = log.runs[0]?.results ?? [];
    expect(results).toHaveLength(SARIF_MAX_RESULTS);
    expect(results.slice(0, (SARIF_MAX_RESULTS + 10) / 2).every((result) => result.level === 'error')).toBe(true);
    const last = results.at(-1);
    expect(last?.ruleId).toBe(RESULTS_CUT_RULE);
    expect(last?.message.text).toMatch(/^11 more findings were cut: code scanning takes at most 25000 results a run/);
    expect(log.runs[0]?.properties.resultsCut).toBe(11);
    expect(githubSubsetProblems(log)).toEqual([]);
  });

  it('under the limit nothing is cut', () => {
    const log = parse(renderSarif(FINDINGS, { version: '1', maxResults: FINDINGS.length }));
    expect(log.runs[0]?.results).toHaveLength(FINDINGS.length);
    expect(log.runs[0]?.properties.resultsCut).toBe(0);
    const cut = parse(renderSarif(FINDINGS, { version: '1', maxResults: 3 }));
    expect(sarifSchemaValidator()(cut)).toBe(true);
    expect(cut.runs[0]?.results.map((result) => result.ruleId)).toEqual(['webmail-domain', 'yaml-syntax', RESULTS_CUT_RULE]);
  });

  it('reads the governance rule a finding names, and none from other checks', () => {
    expect(governanceRuleOf({ code: 'rule-deny', message: 'rule "a \\"b\\"": x' })).toBe('a \\"b\\"');
    expect(governanceRuleOf({ code: 'webmail-domain', message: 'rule "x": y' })).toBeNull();
  });
});
