/**
 * The orchestrator both front ends call (src/cli, src/action); neither plans or applies on its own.
 * Like octoDNS's Manager.sync, each entry point reads as a list of steps:
 *  - makePlan (plan.ts):        load policies → prune candidates (desired.ts) → read each live scope → plan builder → plan
 *  - applyPlan (apply.ts):      checkSafety → (saved plan) still current? (saved-plan.ts) → applyChanges
 *  - readSavedPlan (saved-plan.ts): pin → schema → consistency
 *  - importScopes (import.ts):  read live state → one canonical policy document per scope
 */
export { makePlan, nothingPlannedMessage, type MakePlanOptions, type PlanSettings } from './make-plan.js';
export { applyPlan, type ApplyPlanOptions } from './apply-plan.js';
export { importScopes, type ImportedScope, type ImportOptions } from './import-scopes.js';
export { MAX_PLAN_BYTES, readSavedPlan } from './saved-plan.js';
