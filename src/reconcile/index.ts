/**
 * The orchestrator's steps, below the command layer (src/commands: each command is one function
 * from a request to an outcome, and the front ends call only those). Like octoDNS's Manager.sync,
 * each entry point reads as a list of steps:
 *  - makePlan (make-plan.ts):      load the policies and find the prune candidates (desired.ts, one
 *    stream of the scopes to plan) → read each live scope as it comes → plan builder → the state
 *    last applied where drift needs it (src/history/last-applied.ts) → ownership refusals
 *    (ownership-refusal.ts) → plan
 *  - applyPlan (apply-plan.ts):    ownership and behind refusals → checkSafety → write checks →
 *    (saved plan) still current? (saved-plan.ts, expired-since-plan.ts) → confirm → applyChanges
 *  - readSavedPlan (saved-plan.ts): size cap → pin → schema → consistency
 *  - importScopes (import-scopes.ts): read live state → one canonical policy document per scope
 *  - adoptDrift (adopt-drift.ts, adopt-counts.ts): the live state of drifted scopes into their files
 * This index re-exports what the front ends' shared helpers use; the commands import the modules.
 */
export { makePlan, nothingPlannedMessage, type MakePlanOptions, type PlanSettings } from './make-plan.js';
export { applyPlan, type ApplyPlanOptions } from './apply-plan.js';
export { importScopes, type ImportedScope, type ImportOptions } from './import-scopes.js';
export { MAX_PLAN_BYTES, readSavedPlan } from './saved-plan.js';
