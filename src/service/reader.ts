/**
 * The tolerant reader of the service's answers (README, "How live state is read"): each answer is checked against
 * the definition in schemas/api/invitation-service.schema.json that names only the fields the
 * client uses, with their types; everything else passes. Compiled once, on first use. Only the
 * client uses it: the emulator is written from the interface text, so a wrong belief here is
 * not mirrored there.
 */
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { createSchemaValidator, type ErrorObject, type ValidateFunction } from '../schema-validator.js';
import apiSchema from '../../schemas/api/invitation-service.schema.json' with { type: 'json' };

/** The `$defs` of the reader's schema that answers are checked against. */
export type AnswerShape = 'Invitation' | 'InvitationListing' | 'AutojoinState' | 'FormStylePreset' | 'EmailPresetList';

// Built on first use: commands that never talk to the service should not pay for it.
let ajv: Ajv2020 | undefined;
const validators = new Map<AnswerShape, ValidateFunction>();

function validatorFor(name: AnswerShape): ValidateFunction {
  let validate = validators.get(name);
  if (!validate) {
    if (!ajv) {
      ajv = createSchemaValidator({ allErrors: false });
      ajv.addSchema(apiSchema);
    }
    validate = ajv.getSchema(`${apiSchema.$id}#/$defs/${name}`);
    if (!validate) throw new Error(`no answer shape named ${name}`);
    validators.set(name, validate);
  }
  return validate;
}

/** @returns null when `value` has the named shape in the fields the client uses, else a one-line reason. */
export function answerProblem(name: AnswerShape, value: unknown): string | null {
  const validate = validatorFor(name);
  if (validate(value)) return null;
  return describeError(validate.errors?.[0]);
}

function describeError(error: ErrorObject | undefined): string {
  if (!error) return 'does not have the expected shape';
  const where = error.instancePath === '' ? 'body' : error.instancePath;
  return `${where} ${error.message ?? 'is invalid'}`;
}
