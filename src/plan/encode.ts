/**
 * The plan document: the one JSON form of a plan (schemas/plan.schema.json), which `--format
 * json`, `plan --out`, the action's plan file and the result document all write. A Plan in
 * memory holds what was decided; the document adds, for its readers, what follows from it (each
 * change's `added`, `removed` and `unchanged`, and the `summary`: derived.ts), as Terraform's
 * Changes and ChangesSrc are joined by Encode. Reading a saved plan goes the other way:
 * `decodePlan` drops those fields once `planInconsistency` (checks.ts) has held them against a
 * recomputation. The text is stable (fixed key order, 2-space indent, trailing newline), so the
 * same plan always serializes to the same bytes.
 */
import { compareStrings } from '../comparable-domain.js';
import { isPlainObject } from '../plain-object.js';
import { domainDelta, summarize, type DomainDelta } from './derived.js';
import type { Change, Plan, PlanSummary } from './types.js';

/** A change as the plan document holds it: with its domain delta. */
export type ChangeDocument = Change & DomainDelta;

/** A plan as the plan document holds it: the changes with their deltas, and the summary. */
export interface PlanDocument extends Omit<Plan, 'changes'> {
  changes: ChangeDocument[];
  summary: PlanSummary;
}

/** Keys in the order a reader expects them; any other key sorts after these, alphabetically. */
const KEY_ORDER = [
  'formatVersion', 'createdAt', 'target', 'owner', 'shard', 'shards', 'summary', 'changes', 'notManagedHere', 'scopes', 'context',
  'projectFile', 'path', 'sha256', 'limits', 'today', 'head', 'takeOwnership',
  'kind', 'key', 'scopeType', 'scope', 'scopeName', 'componentId', 'domain', 'reason', 'explicitEmpty', 'source',
  'field', 'metadata', 'keptMetadata', 'before', 'after', 'added', 'removed', 'removalReasons', 'unchanged', 'fieldChanges', 'fingerprint',
  'create', 'update', 'clear', 'domainsAdded', 'domainsRemoved',
  'file', 'line', 'column',
];
const KEY_RANK = new Map(KEY_ORDER.map((key, index) => [key, index]));

/** @returns the plan document of `plan`: derived fields added, keys in the document's order. */
export function encodePlan(plan: Plan): PlanDocument {
  const deltas = plan.changes.map(domainDelta);
  // --only-expired's refused scopes are the verdict's to render (types.ts), never part of the document.
  const { onlyExpiredRefused: _refused, ...written } = plan;
  const document = ordered({ ...written, summary: summarize(plan, deltas), changes: [] }) as PlanDocument;
  // Set after ordering, in the place the key already holds: each change is ordered once, as it is built.
  document.changes = plan.changes.map((change, index) => encodeChange(change, deltas[index] ?? domainDelta(change)));
  return document;
}

/** A change with its delta, keys in the document's order (built in one step: spreading each change first costs more than ordering it). */
function encodeChange(change: Change, delta: DomainDelta): ChangeDocument {
  const entries: [string, unknown][] = [...Object.entries(change), ['added', delta.added], ['removed', delta.removed], ['unchanged', delta.unchanged]];
  return orderedEntries(entries) as unknown as ChangeDocument;
}

/** @returns the plan document as stable JSON text: fixed key order, 2-space indent, trailing newline. */
export function serializePlan(plan: Plan): string {
  return `${JSON.stringify(encodePlan(plan), null, 2)}\n`;
}

/** @returns the plan a document holds, without its derived fields (check them first: checks.ts). */
export function decodePlan(document: PlanDocument): Plan {
  const { summary: _summary, changes, ...rest } = document;
  return { ...rest, changes: changes.map(decodeChange) };
}

function decodeChange(document: ChangeDocument): Change {
  const { added: _added, removed: _removed, unchanged: _unchanged, ...change } = document;
  return change;
}

function ordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(ordered);
  if (!isPlainObject(value)) return value;
  return orderedEntries(Object.entries(value));
}

function orderedEntries(entries: [string, unknown][]): Record<string, unknown> {
  entries.sort(([a], [b]) => compareKeys(a, b));
  return Object.fromEntries(entries.map(([key, value]) => [key, ordered(value)]));
}

function compareKeys(a: string, b: string): number {
  const rankA = KEY_RANK.get(a) ?? KEY_ORDER.length;
  const rankB = KEY_RANK.get(b) ?? KEY_ORDER.length;
  return rankA - rankB || compareStrings(a, b);
}
