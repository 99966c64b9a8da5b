/**
 * The saved plan's reader, unit by unit (src/plan/saved.ts): the error it throws, the name it
 * gives a file it was not told, the digest `--plan-sha256` pins and the one-line schema message.
 */
import { describe, expect, it } from 'vitest';
import { describeSchemaError, parsePlan, parsePlanSchema, planDigest, PlanFileError } from '../../src/plan/saved.js';
import type { ErrorObject } from '../../src/schema-validator.js';

function thrown(read: () => unknown): Error {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(PlanFileError);
    return error as Error;
  }
  throw new Error('the plan was accepted');
}

const schemaError = (extra: Partial<ErrorObject>): ErrorObject => ({ instancePath: '/changes/0', schemaPath: '#/x', keyword: 'type', params: {}, ...extra });

describe('PlanFileError', () => {
  it('is named PlanFileError (the name a report and a stack show)', () => {
    expect(thrown(() => parsePlan('{')).name).toBe('PlanFileError');
  });
});

describe('the file name in messages', () => {
  it('is "plan file" when the caller names none, in both steps', () => {
    expect(thrown(() => parsePlan('{')).message).toBe('plan file is not JSON (1 characters)');
    expect(thrown(() => parsePlanSchema('[]')).message).toMatch(/^plan file has formatVersion missing;/u);
  });
});

describe('planDigest', () => {
  it('is the sha256 of the bytes in lower-case hex', () => {
    expect(planDigest(new TextEncoder().encode('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('describeSchemaError', () => {
  it('names the schema when the validator reported no error', () => {
    expect(describeSchemaError(undefined)).toBe('does not match schemas/plan.schema.json');
  });

  it('says the document does not match where an error carries no message', () => {
    expect(describeSchemaError(schemaError({}))).toBe('invalid at /changes/0: does not match the schema');
  });

  it('adds the property of additionalProperties and the values of enum, nothing for other keywords', () => {
    expect(describeSchemaError(schemaError({ keyword: 'additionalProperties', params: { additionalProperty: 'apiKey' }, message: 'no' }))).toBe('invalid at /changes/0: no (apiKey)');
    expect(describeSchemaError(schemaError({ keyword: 'enum', params: { allowedValues: ['a', 'b'] }, message: 'one of' }))).toBe('invalid at /changes/0: one of (a, b)');
    expect(describeSchemaError(schemaError({ instancePath: '', params: { additionalProperty: 'x', allowedValues: ['y'] }, message: 'bad' }))).toBe('invalid at the top level: bad');
  });
});
