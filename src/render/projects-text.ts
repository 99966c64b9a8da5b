/**
 * A plan of several projects for a terminal or a comment (design: "Many projects, one run"): its
 * scopes grouped by project, a heading naming each project file (projects with changes first,
 * then by name), each as a plan of one renders, then one summary of the run.
 */
import { splitPlan, type ProjectPlan } from '../plan/joined-plan.js';
import type { Plan } from '../plan/types.js';
import { planView } from './view.js';

/** The projects of a joined plan in the order they are shown: those with changes or kept drift first, then by name. */
export function projectsInOrder(plan: Plan): ProjectPlan[] {
  const busy = (part: ProjectPlan): number => Number(part.plan.changes.length === 0 && part.plan.drift.length === 0);
  return splitPlan(plan).sort((a, b) => busy(a) - busy(b) || (a.project.name < b.project.name ? -1 : a.project.name > b.project.name ? 1 : 0));
}

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
