import { serializePlan } from '../plan/saved.js';
import type { Plan } from '../plan/types.js';

/** Renders the plan document itself: the same bytes a saved plan (`--out`) holds. */
export function renderJson(plan: Plan): string {
  return serializePlan(plan);
}
