/**
 * A plan of several projects for a terminal or a comment (design: "Many projects, one run"): its
 * scopes grouped by project, a heading naming each project file (in a pull request's comment the
 * projects it changed first; then projects with changes, then by name), each as a plan of one
 * renders, then one summary of the run.
 */
import { splitPlan, type ProjectPlan } from '../plan/joined-plan.js';
import type { Plan, PlanProject } from '../plan/types.js';
import { planView } from './view.js';

/**
 * The projects of a joined plan in the order they are shown: those holding a changed file first,
 * then those with changes or kept drift, then by name.
 * @param changedFiles files a pull request changed, `/`-separated from the repository root (the projects' roots')
 */
export function projectsInOrder(plan: Plan, changedFiles: ReadonlySet<string> = new Set()): ProjectPlan[] {
  const touched = projectsHolding(plan.projects ?? [], changedFiles);
  const untouched = (part: ProjectPlan): number => Number(!touched.has(part.project.name));
  const busy = (part: ProjectPlan): number => Number(part.plan.changes.length === 0 && part.plan.drift.length === 0);
  return splitPlan(plan).sort((a, b) => untouched(a) - untouched(b) || busy(a) - busy(b) || (a.project.name < b.project.name ? -1 : a.project.name > b.project.name ? 1 : 0));
}

/** The names of the projects that hold one of `files`: each file is its nearest project's (the deepest root above it, as a policy file's nearest project file). */
function projectsHolding(projects: readonly PlanProject[], files: ReadonlySet<string>): Set<string> {
  const within = (file: string, root: string): boolean => root === '.' || file.startsWith(`${root}/`);
  const holding = new Set<string>();
  for (const file of files) {
    const nearest = projects.filter((project) => within(file, project.root)).sort((a, b) => depth(b.root) - depth(a.root))[0];
    if (nearest !== undefined) holding.add(nearest.name);
  }
  return holding;
}

const depth = (root: string): number => (root === '.' ? 0 : root.split('/').length);

/** How a project's section is headed: its project file (or its directory) and its owner. */
export function projectHeading(part: ProjectPlan): string {
  return `${part.project.projectFile === null ? `${part.project.name} (no project file)` : part.project.name}, owner ${part.project.owner}`;
}

/**
 * @param renderOne how a plan of one renders (its target line left out: the run's is shown once)
 * @param heading how a project's heading is written (`## …` in markdown, bold on a terminal)
 */
export function renderProjects(plan: Plan, renderOne: (part: Plan) => string, heading: (text: string) => string): string {
  const view = planView(plan);
  const head = view.target === null ? '' : `${view.target}\n\n`;
  const sections = projectsInOrder(plan).map((part) => `${heading(projectHeading(part))}\n${renderOne({ ...part.plan, target: plan.target }).replace(head, '')}`);
  return `${head}${sections.join('\n')}\n${view.counts} (${plan.projects?.length ?? 0} projects)\n`;
}
