/**
 * The JSON Schema validators are compiled at build time (scripts/schema-validators.mjs) into
 * src/generated/. These tests hold them to what a run-time compile gave before: the committed code
 * is exactly a fresh generation from schemas/ (no drift), it is built with the options of
 * createSchemaValidator, and for any document it answers with the same verdict and the same error
 * objects (instancePath, keyword, params, message, and the schema and data of `verbose`) as ajv
 * compiling the schema in the process.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { ajvOptions, generateValidators, linearUniqueItems, MODULES } from '../../scripts/schema-validators.mjs';
import { createSchemaValidator, type ValidateFunction } from '../../src/schema-validator.js';
import * as answerValidators from '../../src/generated/answer-validators.js';
import { plan as compiledPlan } from '../../src/generated/plan-validator.js';
import { policy as compiledPolicy, project as compiledProject } from '../../src/generated/policy-validators.js';
import policySchema from '../../schemas/autojoin.schema.json' with { type: 'json' };
import projectSchema from '../../schemas/project.schema.json' with { type: 'json' };
import planSchema from '../../schemas/plan.schema.json' with { type: 'json' };
import apiSchema from '../../schemas/api/invitation-service.schema.json' with { type: 'json' };
import { serializePlan } from '../../src/plan/encode.js';
import { samplePlan } from '../plan/fixtures.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('the generated validators (src/generated/)', () => {
  it('are byte for byte what scripts/schema-validators.mjs generates from schemas/ now (run `npm run build` after changing a schema)', () => {
    const generated = generateValidators(ROOT);
    expect([...generated.keys()].sort()).toEqual(readdirSync(path.join(ROOT, 'src/generated')).map((name) => `src/generated/${name}`).sort());
    for (const [file, text] of generated) expect(readFileSync(path.join(ROOT, file), 'utf8') === text, file).toBe(true);
  });

  it('are compiled with the options of createSchemaValidator (strict, draft 2020-12)', () => {
    for (const { allErrors } of MODULES) expect(createSchemaValidator({ allErrors }).opts).toMatchObject(ajvOptions(allErrors));
  });

  it('are all the program validates with: no module of src/ imports ajv or createSchemaValidator but as types (so no run compiles a schema and ajv is not bundled)', () => {
    const files = readdirSync(path.join(ROOT, 'src'), { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts') && name !== 'schema-validator.ts');
    const valueImports = files.filter((name) => {
      const text = readFileSync(path.join(ROOT, 'src', name), 'utf8');
      return /^import (?!type )[^;]*from '(ajv[^']*|[./]+\/schema-validator\.js)';/mu.test(text) || /import\(\s*'ajv/u.test(text);
    });
    expect(files.length).toBeGreaterThan(100);
    expect(valueImports).toEqual([]);
  });

  it('check uniqueItems in linear time: no deep-equality helper, so no pairwise comparison of the items (one scope of 26,000 domains spent 14 s there)', () => {
    for (const [file, text] of generateValidators(ROOT)) expect(text, file).not.toMatch(/ajv\/dist\/runtime\/equal/);
  });

  it('import no part of ajv but its run-time helpers, and compile nothing', () => {
    for (const [file, text] of generateValidators(ROOT)) {
      const imports = [...text.matchAll(/^import .* from "([^"]+)";$/gm)].map((match) => match[1]);
      for (const specifier of imports) expect(specifier, file).toMatch(/^ajv\/dist\/runtime\/\w+\.js$/);
      expect(text, file).not.toMatch(/\brequire\(|new Function|\beval\(/);
    }
  });
});

/**
 * What the program did before: ajv compiling the schema in the process (the reference), in its
 * compiled form (linearUniqueItems); the published schemas' meaning is held below.
 */
const policyAjv = createSchemaValidator({ allErrors: true });
const answerAjv = createSchemaValidator({ allErrors: false }).addSchema(apiSchema);
const answerShape = (name: string): ValidateFunction => {
  const validate = answerAjv.getSchema(`${apiSchema.$id}#/$defs/${name}`);
  if (!validate) throw new Error(name);
  return validate;
};

const savedPlan = JSON.parse(serializePlan(samplePlan())) as unknown;

const yamlFixtures = (dir: string): unknown[] =>
  readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.yaml'))
    .flatMap((name) => {
      const text = readFileSync(path.join(ROOT, dir, name), 'utf8');
      return parseAllDocuments(text).flatMap((document) => ('errors' in document && document.errors.length === 0 ? toData(document) : []));
    });

/** @returns the document's data, or nothing for one that has none (the alias bomb fixture) */
function toData(document: { toJS: () => unknown }): unknown[] {
  try {
    return [document.toJS()];
  } catch {
    return [];
  }
}

const invitation = { id: 'inv_1', invitationType: 'autojoin', deactivated: false, status: null, target: [{ type: 'domain', value: 'a.com' }], groups: [{ id: 'g', groupId: 'a', type: 'team', name: 'A' }] };

/** Each generated validator, its reference, and documents to start from (valid and invalid ones). */
const PAIRS: { name: string; compiled: ValidateFunction; reference: ValidateFunction; seeds: unknown[] }[] = [
  { name: 'policy', compiled: compiledPolicy, reference: policyAjv.compile(linearUniqueItems(policySchema)), seeds: yamlFixtures('test/fixtures/policies/bad').concat(yamlFixtures('test/fixtures/policies/good')) },
  { name: 'project', compiled: compiledProject, reference: policyAjv.compile(linearUniqueItems(projectSchema)), seeds: yamlFixtures('test/fixtures/policies').filter((data) => typeof data === 'object' && data !== null && 'defaults' in data) },
  { name: 'plan', compiled: compiledPlan, reference: createSchemaValidator({ allErrors: false }).compile(linearUniqueItems(planSchema)), seeds: [savedPlan] },
  { name: 'Invitation', compiled: answerValidators.Invitation, reference: answerShape('Invitation'), seeds: [invitation] },
  { name: 'InvitationListing', compiled: answerValidators.InvitationListing, reference: answerShape('InvitationListing'), seeds: [{ invitations: [invitation] }] },
  { name: 'AutojoinState', compiled: answerValidators.AutojoinState, reference: answerShape('AutojoinState'), seeds: [{ autojoinDomains: [{ id: 'd', domain: 'a.com' }], invitation }] },
  { name: 'FormStylePreset', compiled: answerValidators.FormStylePreset, reference: answerShape('FormStylePreset'), seeds: [{ id: 'p' }] },
  { name: 'EmailPresetList', compiled: answerValidators.EmailPresetList, reference: answerShape('EmailPresetList'), seeds: [[{ id: 'p' }]] },
];

type Key = string | number;

/** Every path into `value` (the root included). */
function pathsOf(value: unknown, at: Key[] = []): Key[][] {
  if (typeof value !== 'object' || value === null) return [at];
  const entries: [Key, unknown][] = Array.isArray(value) ? value.map((item, index) => [index, item]) : Object.entries(value);
  return [at, ...entries.flatMap(([key, item]) => pathsOf(item, [...at, key]))];
}

interface Mutation {
  at: Key[];
  op: 'set' | 'delete' | 'add';
  key: string;
  value: unknown;
}

/** @returns a copy of `document` with `mutations` applied where their path still exists */
function mutate(document: unknown, mutations: Mutation[]): unknown {
  const root = { value: structuredClone(document) };
  for (const { at, op, key, value } of mutations) {
    let parent: Record<Key, unknown> = root;
    let last: Key = 'value';
    for (const part of at) {
      const next = parent[last];
      if (typeof next !== 'object' || next === null) break;
      parent = next as Record<Key, unknown>;
      last = part;
    }
    if (op === 'set') parent[last] = value;
    else if (op === 'delete' && parent !== root) delete parent[last];
    else if (op === 'add' && typeof parent[last] === 'object' && parent[last] !== null) (parent[last] as Record<string, unknown>)[key] = value;
  }
  return root.value;
}

const sameAnswer = (compiled: ValidateFunction, reference: ValidateFunction, data: unknown): void => {
  expect(compiled(data)).toBe(reference(data));
  expect(compiled.errors).toStrictEqual(reference.errors);
};

describe.each(PAIRS)('the generated $name validator', ({ compiled, reference, seeds }) => {
  it('answers every seed document exactly as a run-time compile does (verdict and error objects)', () => {
    expect(seeds.length).toBeGreaterThan(0);
    for (const seed of seeds) sameAnswer(compiled, reference, seed);
  });

  it('answers mutated documents exactly as a run-time compile does (property)', () => {
    const mutation = (seed: unknown): fc.Arbitrary<Mutation> =>
      fc.record({ at: fc.constantFrom(...pathsOf(seed)), op: fc.constantFrom('set' as const, 'delete' as const, 'add' as const), key: fc.string({ maxLength: 8 }), value: fc.jsonValue({ maxDepth: 2 }) });
    const arbitrary = fc.constantFrom(...seeds).chain((seed) => fc.tuple(fc.constant(seed), fc.array(mutation(seed), { minLength: 1, maxLength: 3 })));
    fc.assert(
      fc.property(arbitrary, ([seed, mutations]) => sameAnswer(compiled, reference, mutate(seed, mutations))),
      { numRuns: 150 },
    );
  });
});

/** Where and why each error is, without the schema objects (the compiled form's differ by design). */
const verdict = (validate: ValidateFunction, data: unknown, dropUniqueItems: boolean) => {
  const valid = validate(data);
  const errors = (validate.errors ?? []).filter((error) => !dropUniqueItems || error.keyword !== 'uniqueItems').map(({ instancePath, keyword, params }) => ({ instancePath, keyword, params }));
  return { valid: valid || (dropUniqueItems && errors.length === 0), errors };
};

describe('the compiled form of the published schemas (linearUniqueItems)', () => {
  const published = [
    { name: 'policy', schema: policySchema, seeds: PAIRS[0]?.seeds ?? [], dropped: true },
    { name: 'plan', schema: planSchema, seeds: PAIRS[2]?.seeds ?? [], dropped: false },
  ];

  it.each(published)('$name: answers as the published schema does, but for the uniqueItems of a policy\'s domains, which the domain checks report', ({ schema, seeds, dropped }) => {
    const ajv = createSchemaValidator({ allErrors: true });
    const original = ajv.compile(schema);
    const linear = createSchemaValidator({ allErrors: true }).compile(linearUniqueItems(schema));
    const withDuplicate = (seed: unknown): unknown[] => {
      const domains = (seed as { domains?: unknown }).domains;
      return Array.isArray(domains) && domains.length > 0 ? [seed, { ...(seed as object), domains: [...domains, domains[0]] }] : [seed];
    };
    const documents = seeds.flatMap(withDuplicate);
    expect(documents.length).toBeGreaterThan(seeds.length - 1);
    for (const document of documents) expect(verdict(linear, document, false)).toEqual(verdict(original, document, dropped));
  });

  it('keeps a policy\'s duplicate domains an error, reported by the loader at each position', async () => {
    const { loadPolicies } = await import('../../src/policy/index.js');
    const { mkdtemp, rm, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const dir = await mkdtemp(path.join(tmpdir(), 'autojoin-unique-'));
    try {
      await writeFile(path.join(dir, 'a.autojoin.yaml'), 'scope: a\nscopeType: team\ncomponentId: c\ndomains:\n  - acme.com\n  - {domain: acme.com, expires: 2099-01-01}\n');
      const { diagnostics } = await loadPolicies(['.'], { cwd: dir });
      expect(diagnostics.map((d) => `${d.line}:${d.code}`)).toEqual(['5:duplicate-domain', '6:duplicate-domain']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
