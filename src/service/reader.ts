/**
 * The tolerant reader of the service's answers (docs/service.md, "How a scope is read"): each answer is checked against
 * the definition in schemas/api/invitation-service.schema.json that names only the fields the
 * client uses, with their types; everything else passes. Compiled at build time. Only the
 * client uses it: the emulator is written from the interface text, so a wrong belief here is
 * not mirrored there.
 */
import type { ErrorObject, ValidateFunction } from '../schema-validator.js';
import * as answerValidators from '../generated/answer-validators.js';

/** The `$defs` of the reader's schema that answers are checked against. */
export type AnswerShape = 'Invitation' | 'InvitationListing' | 'AutojoinState' | 'FormStylePreset' | 'EmailPresetList';

// Compiled at build time (scripts/schema-validators.mjs): a run compiles nothing.
const validators: Record<AnswerShape, ValidateFunction> = answerValidators;

/** @returns null when `value` has the named shape in the fields the client uses, else a one-line reason. */
export function answerProblem(name: AnswerShape, value: unknown): string | null {
  const validate = validators[name];
  if (validate(value)) return null;
  return describeError(validate.errors?.[0]);
}

function describeError(error: ErrorObject | undefined): string {
  if (!error) return 'does not have the expected shape';
  const where = error.instancePath === '' ? 'body' : error.instancePath;
  return `${where} ${error.message ?? 'is invalid'}`;
}
