import { serializePlan } from '../plan/encode.js';
import type { Plan } from '../plan/types.js';

/** Renders the plan document (encode.ts): the same bytes a saved plan (`--out`) holds. */
export function renderJson(plan: Plan): string {
  return serializePlan(plan);
}
