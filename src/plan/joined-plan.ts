/**
 * A plan of several projects (design: "Many projects, one run"), as data: each project is planned
 * on its own (its owner, limits, rules), and the run's plan is their plans joined, every entry
 * naming its project and `projects` holding each one's context. Pure: joining, and splitting a
 * joined plan back into each project's plan (what the verdict, apply and the renderers take).
 */
import type { Plan, PlanProject } from './types.js';
import type { ScopeKey } from '../scope.js';

/** One project's plan with the project's context as the plan document records it. */
export interface ProjectPlan {
  project: PlanProject;
  plan: Plan;
}

// The plans a joined plan was made of, census included (in memory only): splitting one gives them back.
const madeOf = new WeakMap<Plan, ReadonlyMap<string, Plan>>();

/**
 * @param parts the projects' plans, in the run's order of projects (two at least)
 * @returns the run's plan: the parts' entries, each naming its project; `owner` and `context` the first project's, with every take-over
 */
export function joinPlans(given: readonly ProjectPlan[]): Plan {
  const declared = new Set(given.flatMap(({ plan }) => plan.scopes.map((scope) => scope.key)));
  const parts = given.map((part) => ({ ...part, plan: withinRun(part.plan, declared, given) }));
  const [first] = parts as [ProjectPlan, ...ProjectPlan[]];
  const named = <T extends object>(name: string, entries: readonly T[] | undefined): (T & { project: string })[] => (entries ?? []).map((entry) => ({ ...entry, project: name }));
  const all = <T>(pick: (part: ProjectPlan) => readonly T[]): T[] => parts.flatMap(pick);
  const notes = [...new Set(all(({ plan }) => plan.notes ?? []))];
  // A scope another project of the run declares now is declared by the run: never "declared outside".
  const outside = all(({ project, plan }) => named(project.name, plan.declaredOutside));
  const behind = all(({ project, plan }) => named(project.name, plan.behind));
  const moves = all(({ plan }) => plan.ownerMoves ?? []);
  const redacted = all(({ plan }) => plan.redacted ?? []);
  const { census: _census, ...head } = first.plan;
  const joined: Plan = {
    ...head,
    changes: all(({ project, plan }) => named(project.name, plan.changes)),
    scopes: all(({ project, plan }) => named(project.name, plan.scopes)),
    notManagedHere: all(({ project, plan }) => named(project.name, plan.notManagedHere)),
    drift: all(({ project, plan }) => named(project.name, plan.drift)),
    ...(first.plan.context ? { context: { ...first.plan.context, projectFile: null, rules: [], takeOwnership: all(({ project }) => project.takeOwnership) } } : {}),
    projects: parts.map(({ project }) => project),
  };
  for (const key of ['notes', 'declaredOutside', 'behind', 'ownerMoves', 'redacted'] as const) delete joined[key];
  if (notes.length > 0) joined.notes = notes;
  if (outside.length > 0) joined.declaredOutside = outside;
  if (behind.length > 0) joined.behind = behind;
  if (moves.length > 0) joined.ownerMoves = moves;
  if (redacted.length > 0) joined.redacted = redacted;
  madeOf.set(joined, new Map(parts.map(({ project, plan }) => [project.name, plan])));
  return joined;
}

/**
 * A project's plan within the run: a scope another project of the run declares now is declared by
 * the run, never "declared outside"; a scope it re-marks from another project's owner (an owner
 * move: ownership.ts) says which project it moved from.
 */
function withinRun(plan: Plan, declared: ReadonlySet<ScopeKey>, parts: readonly ProjectPlan[]): Plan {
  const moves = new Set(plan.ownerMoves ?? []);
  const changes = moves.size === 0 ? plan.changes : plan.changes.map((change) => {
    const before = change.fieldChanges?.find((field) => field.field === 'owner')?.before;
    const from = moves.has(change.key) ? parts.find((part) => part.project.owner === before && part.plan !== plan) : undefined;
    return from === undefined ? change : { ...change, movedFrom: from.project.name };
  });
  const outside = (plan.declaredOutside ?? []).filter((entry) => !declared.has(entry.key));
  const { declaredOutside: _outside, ...rest } = plan;
  return { ...rest, changes, ...(outside.length === 0 ? {} : { declaredOutside: outside }) };
}

/**
 * @returns each project's plan of a joined plan, in its order of projects: the plans it was joined
 *   from when this process joined it (with their census), else its entries by project, each plan
 *   with its project's owner and context
 */
export function splitPlan(plan: Plan): ProjectPlan[] {
  const projects = plan.projects ?? [];
  const parts = madeOf.get(plan);
  return projects.map((project) => ({ project, plan: parts?.get(project.name) ?? partOf(plan, project) }));
}

function partOf(plan: Plan, project: PlanProject): Plan {
  const mine = <T extends { project?: string }>(entries: readonly T[] | undefined): T[] => (entries ?? []).filter((entry) => entry.project === project.name).map(unnamed);
  const { projects: _projects, ...rest } = plan;
  const part: Plan = {
    ...rest,
    owner: project.owner,
    changes: mine(plan.changes),
    scopes: mine(plan.scopes),
    notManagedHere: mine(plan.notManagedHere),
    drift: mine(plan.drift),
    ...(plan.context ? { context: { ...plan.context, projectFile: project.projectFile, limits: project.limits, rules: project.rules, takeOwnership: project.takeOwnership } } : {}),
  };
  for (const key of ['declaredOutside', 'behind', 'redacted', 'ownerMoves'] as const) delete part[key];
  const outside = mine(plan.declaredOutside);
  const behind = mine(plan.behind);
  const keys = new Set<ScopeKey>(part.scopes.map((scope) => scope.key));
  const redacted = (plan.redacted ?? []).filter((key) => keys.has(key));
  const moves = (plan.ownerMoves ?? []).filter((key) => keys.has(key));
  if (outside.length > 0) part.declaredOutside = outside;
  if (behind.length > 0) part.behind = behind;
  if (redacted.length > 0) part.redacted = redacted;
  if (moves.length > 0) part.ownerMoves = moves;
  return part;
}

function unnamed<T extends { project?: string }>(entry: T): T {
  const { project: _project, ...rest } = entry;
  return rest as T;
}
