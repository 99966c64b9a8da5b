/**
 * Checks a SARIF log two ways:
 *  - against the OASIS SARIF 2.1.0 JSON schema (2.1.0-rtm.5, the final 2.1.0 schema), as shipped
 *    in the npm package `@microsoft/jest-sarif` (a devDependency; file
 *    lib/schemas/sarif-2.1.0-rtm.5.json, from microsoft/sarif-js-sdk). The file is draft-04 JSON
 *    Schema; ajv 8 reads it once its draft-04 `$schema` and `id` are left out (it uses no keyword
 *    whose meaning changed after draft-04, such as a boolean exclusiveMinimum);
 *  - against the subset GitHub code scanning documents ("SARIF support for code scanning"): version
 *    2.1.0, a tool driver with a name and rules, each result with a ruleId of the run's rules, a
 *    level, a message, one physical location whose URI is relative to the repository root and whose
 *    region starts at line 1 or later, partialFingerprints, and at most 25,000 results a run.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv, type ValidateFunction } from 'ajv';
import formats from 'ajv-formats';

/** The npm package and file the OASIS schema is read from. */
export const SARIF_SCHEMA_SOURCE = '@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json';

let compiled: ValidateFunction | undefined;

/** @returns ajv's validator of the OASIS SARIF 2.1.0 schema. */
export function sarifSchemaValidator(): ValidateFunction {
  if (compiled) return compiled;
  // createRequire's resolve follows node_modules (and NODE_PATH, for a package installed elsewhere).
  let file: string;
  try {
    file = createRequire(import.meta.url).resolve(SARIF_SCHEMA_SOURCE);
  } catch (error) {
    throw new Error(`the OASIS SARIF schema comes from the devDependency @microsoft/jest-sarif: run npm ci (${String(error)})`, { cause: error });
  }
  const schema = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  delete schema.$schema;
  delete schema.id;
  // unicodeRegExp: false: the schema's language pattern has a stray ']', which only a non-unicode RegExp accepts.
  const ajv = new Ajv({ strict: false, allErrors: true, unicodeRegExp: false });
  // ajv-formats is CommonJS: its default export is the module, whose `default` is the plugin.
  (formats as unknown as { default: (ajv: Ajv) => void }).default(ajv);
  compiled = ajv.compile(schema);
  return compiled;
}

interface SarifLog {
  version?: unknown;
  runs?: {
    tool?: { driver?: { name?: unknown; rules?: { id?: unknown; shortDescription?: { text?: unknown } }[] } };
    results?: {
      ruleId?: unknown;
      ruleIndex?: unknown;
      level?: unknown;
      message?: { text?: unknown };
      locations?: { physicalLocation?: { artifactLocation?: { uri?: unknown }; region?: { startLine?: unknown; startColumn?: unknown } } }[];
      partialFingerprints?: Record<string, unknown>;
    }[];
  }[];
}

/** @returns every way `log` leaves GitHub's documented subset; [] when it keeps to it. */
export function githubSubsetProblems(log: unknown): string[] {
  const problems: string[] = [];
  const sarif = log as SarifLog;
  if (sarif.version !== '2.1.0') problems.push('version is not 2.1.0');
  for (const [r, run] of (sarif.runs ?? []).entries()) {
    const rules = run.tool?.driver?.rules ?? [];
    if (typeof run.tool?.driver?.name !== 'string') problems.push(`run ${r}: no tool.driver.name`);
    if (new Set(rules.map((rule) => rule.id)).size !== rules.length) problems.push(`run ${r}: two rules with one id`);
    for (const rule of rules) if (typeof rule.shortDescription?.text !== 'string') problems.push(`rule ${String(rule.id)}: no shortDescription`);
    const results = run.results ?? [];
    if (results.length > 25_000) problems.push(`run ${r}: ${results.length} results, more than 25,000`);
    for (const [i, result] of results.entries()) {
      const where = `run ${r} result ${i}`;
      const index = rules.findIndex((rule) => rule.id === result.ruleId);
      if (index < 0) problems.push(`${where}: ruleId ${String(result.ruleId)} is not a rule of the run`);
      if (result.ruleIndex !== undefined && result.ruleIndex !== index) problems.push(`${where}: ruleIndex ${JSON.stringify(result.ruleIndex)} is not ${index}`);
      if (!['error', 'warning', 'note', 'none'].includes(String(result.level))) problems.push(`${where}: level ${String(result.level)}`);
      if (typeof result.message?.text !== 'string' || result.message.text === '') problems.push(`${where}: no message text`);
      const location = result.locations?.[0]?.physicalLocation;
      const uri = location?.artifactLocation?.uri;
      if (typeof uri !== 'string' || /^[a-z][a-z0-9+.-]*:|^\//iu.test(uri) || uri.includes('\\')) problems.push(`${where}: uri ${String(uri)} is not relative`);
      const line = location?.region?.startLine;
      if (typeof line !== 'number' || line < 1) problems.push(`${where}: startLine ${String(line)}`);
      const column = location?.region?.startColumn;
      if (column !== undefined && (typeof column !== 'number' || column < 1)) problems.push(`${where}: startColumn ${JSON.stringify(column)}`);
      if (!result.partialFingerprints || Object.keys(result.partialFingerprints).length === 0) problems.push(`${where}: no partialFingerprints`);
    }
  }
  return problems;
}
