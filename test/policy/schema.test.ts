/**
 * The JSON Schemas themselves, checked with a fresh ajv (not the loader's), against every
 * example and every good fixture, with project defaults filled in as the loader does.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parseAllDocuments, parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import policySchema from '../../schemas/autojoin.schema.json' with { type: 'json' };
import projectSchema from '../../schemas/project.schema.json' with { type: 'json' };
import { createSchemaValidator } from '../../src/schema-validator.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ajv = new Ajv2020({ allErrors: true, strict: true });
const validatePolicy = ajv.compile(policySchema);
const validateProject = ajv.compile(projectSchema);

function yamlFilesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return yamlFilesUnder(full);
    return /\.ya?ml$/.test(name) ? [full] : [];
  });
}

function policiesOf(file: string, defaults: Record<string, unknown>): unknown[] {
  return parseAllDocuments(readFileSync(file, 'utf8'))
    .filter((doc) => doc.contents !== null)
    .map((doc) => ({ ...defaults, ...(doc.toJS() as object) }));
}

const exampleDefaults = (parseYaml(readFileSync(path.join(ROOT, 'examples/autojoin-sync.yaml'), 'utf8')) as { defaults: object }).defaults;
const cases = [
  ...yamlFilesUnder(path.join(ROOT, 'examples/policies')).map((file) => [file, exampleDefaults] as const),
  ...yamlFilesUnder(path.join(ROOT, 'test/fixtures/policies/good'))
    .filter((file) => /autojoin\.ya?ml$/.test(file))
    .map((file) => [file, {}] as const),
  ...yamlFilesUnder(path.join(ROOT, 'test/fixtures/policies/project-defaults/policies')).map(
    (file) => [file, { componentId: 'cmp_default', scopeType: 'team' }] as const,
  ),
];

describe('schemas/autojoin.schema.json', () => {
  it.each(cases.map(([file, defaults]) => [path.relative(ROOT, file), file, defaults] as const))(
    'accepts %s',
    (_name, file, defaults) => {
      const policies = policiesOf(file, defaults);
      expect(policies.length).toBeGreaterThan(0);
      for (const policy of policies) {
        expect(validatePolicy(policy), JSON.stringify(validatePolicy.errors)).toBe(true);
      }
    },
  );

  it('rejects unknown keys, a missing domains list and a missing scopeType', () => {
    expect(validatePolicy({ scope: 'a', componentId: 'c', domains: [], extra: 1 })).toBe(false);
    expect(validatePolicy({ scope: 'a', componentId: 'c' })).toBe(false);
    expect(validatePolicy({ scope: 'a', componentId: 'c', domains: [] })).toBe(false);
    expect(validatePolicy({ scope: 'a', scopeType: 'x/y', componentId: 'c', domains: [] })).toBe(false);
  });

  it('has an $id, and a description and examples on every property', () => {
    expect(policySchema.$id).toBe('https://autojoin-sync.dev/schemas/autojoin.schema.json');
    expect(policySchema.additionalProperties).toBe(false);
    expect(policySchema.required).toEqual(['scope', 'scopeType', 'componentId', 'domains']);
    expect('default' in policySchema.properties.scopeType).toBe(false);
    expect(Object.keys(policySchema.properties)).toEqual(['scope', 'scopeType', 'scopeName', 'componentId', 'metadata', 'drift', 'domains']);
    expectDocumented(policySchema.properties);
    expectDocumented(projectSchema.properties);
    expect(policySchema.description).toContain('defaults.componentId');
    expect(policySchema.description).toContain('defaults.scopeType');
  });
});

function expectDocumented(properties: Record<string, unknown>): void {
  for (const [name, schema] of Object.entries(properties)) {
    const property = schema as { description?: string; examples?: unknown[]; properties?: Record<string, unknown> };
    expect(property.description, name).toMatch(/\w{3,}/);
    expect(property.examples?.length, name).toBeGreaterThan(0);
    if (property.properties) expectDocumented(property.properties);
  }
}

describe('schemas/project.schema.json', () => {
  it.each(['examples/autojoin-sync.yaml', 'test/fixtures/policies/project-defaults/autojoin-sync.yaml'])('accepts %s', (file) => {
    const data = parseYaml(readFileSync(path.join(ROOT, file), 'utf8')) as unknown;
    expect(validateProject(data), JSON.stringify(validateProject.errors)).toBe(true);
  });

  it('rejects the bad project fixture', () => {
    const data = parseYaml(readFileSync(path.join(ROOT, 'test/fixtures/policies/project-bad/autojoin-sync.yaml'), 'utf8')) as unknown;
    expect(validateProject(data)).toBe(false);
    expect(projectSchema.additionalProperties).toBe(false);
  });
});

// The tool's ajv (src/schema-validator.ts) skips the meta-schema check at run time; this is where it happens.
describe('every schema under schemas/', () => {
  const jsonFilesUnder = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) return jsonFilesUnder(full);
      return name.endsWith('.json') ? [full] : [];
    });
  const files = jsonFilesUnder(path.join(ROOT, 'schemas'));

  it('finds the schema files', () => {
    expect(files.length).toBeGreaterThanOrEqual(7);
  });

  it.each(files.map((file) => [path.relative(ROOT, file)]))('%s is a valid draft 2020-12 schema', (file) => {
    const schema = JSON.parse(readFileSync(path.join(ROOT, file), 'utf8')) as object;
    const checker = new Ajv2020({ strict: true });
    expect(checker.validateSchema(schema), JSON.stringify(checker.errors)).toBe(true);
  });

  it('the run-time validator still refuses an unknown keyword (strict mode)', () => {
    expect(() => createSchemaValidator({ allErrors: false }).compile({ type: 'object', propertiez: {} })).toThrow(/unknown keyword/);
  });
});
