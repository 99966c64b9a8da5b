/**
 * The API contract, compiled once: the client validates responses with it and the
 * emulator validates requests with it, so both sides hold to the same schema.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import apiSchema from '../../schemas/api/invitation-service.schema.json' with { type: 'json' };

/** The `$defs` of the API schema that requests and responses are checked against. */
export type ContractName =
  | 'Invitation'
  | 'InvitationListing'
  | 'AutojoinState'
  | 'SyncRequest'
  | 'ErrorBody'
  | 'FormStylePreset'
  | 'EmailPresetList';

// Built on first use: commands that never talk to the service should not pay for it.
let ajv: Ajv2020 | undefined;
const validators = new Map<ContractName, ValidateFunction>();

function validatorFor(name: ContractName): ValidateFunction {
  let validate = validators.get(name);
  if (!validate) {
    ajv ??= new Ajv2020({ allErrors: false, strict: true }).addSchema(apiSchema);
    validate = ajv.getSchema(`${apiSchema.$id}#/$defs/${name}`);
    if (!validate) throw new Error(`no contract definition named ${name}`);
    validators.set(name, validate);
  }
  return validate;
}

/** @returns null when `value` satisfies the named definition, else a one-line reason. */
export function contractViolation(name: ContractName, value: unknown): string | null {
  const validate = validatorFor(name);
  if (validate(value)) return null;
  return describeError(validate.errors?.[0]);
}

function describeError(error: ErrorObject | undefined): string {
  if (!error) return 'does not match the contract';
  const where = error.instancePath === '' ? 'body' : error.instancePath;
  return `${where} ${error.message ?? 'is invalid'}`;
}
