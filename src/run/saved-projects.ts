/**
 * `apply --plan` of a plan of several projects (design: "Many projects, one run", the plan
 * document): each recorded project file must exist at its recorded path with the recorded sha256,
 * no recorded policy file may now have another nearest project file, and the projects of the
 * checkout that the plan does not hold are not read.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { RunError } from '../output/exit-codes.js';
import { repositoryRoot, isInside, recordedPathProblem } from '../files.js';
import { cutText } from '../redact.js';
import { relativePosix } from '../relative-path.js';
import { PROJECT_FILE } from '../policy/project.js';
import type { Plan, PlanProject } from '../plan/types.js';
import { checkSavedProject, projectHereFor } from './context.js';
import { locateRun, type RunPlace } from './place.js';
import { projectName } from './projects.js';

/**
 * @param saved the plan's projects and the policy files its entries name, with the plan file's name for messages
 * @throws RunError (exit 1) naming the file when a recorded project file is missing or differs, or a recorded policy file moved to another project
 */
export async function savedProjectsPlace(cwd: string, saved: { projects: readonly PlanProject[]; sources: readonly { file: string; project: string }[]; file: string }): Promise<RunPlace> {
  const root = (await repositoryRoot(cwd)) ?? path.resolve(cwd);
  for (const project of saved.projects) {
    refuseRecordedRoot(project.root, saved.file);
    if (project.projectFile !== null) checkSavedProject(project.projectFile, await projectHereFor(project.projectFile, cwd), saved.file);
  }
  const recorded = new Map(saved.projects.map((project) => [project.name, project]));
  for (const source of saved.sources) {
    const project = recorded.get(source.project);
    const nearest = nearestProjectFile(path.resolve(root, source.file), root);
    const now = nearest === null ? null : relativePosix(root, nearest);
    const then = project?.projectFile?.path ?? null;
    if (now !== then) {
      throw new RunError(
        `${saved.file} was made with ${source.file} under ${then ?? 'no project file'}, but its nearest project file here is ${now ?? 'none'}; ` +
          'its owner, limits and rules would not be the ones the plan was checked against; make the plan again here; nothing was written',
      );
    }
  }
  const roots = [...new Set(saved.projects.map((project) => path.resolve(root, project.root)))];
  const place = await locateRun(cwd, roots.map((dir) => relativePosix(cwd, dir) || '.'));
  // Only the projects the plan holds: the checkout's others are not read.
  const projects = place.projects.filter((one) => recorded.has(projectName(one, place.base)));
  return { ...place, projects };
}

/** A project's recorded folder is input like its project file's path: it never leaves the repository. */
function refuseRecordedRoot(root: string, planFile: string): void {
  const problem = root === '.' ? null : recordedPathProblem(root);
  if (problem !== null) throw new RunError(`${planFile} records the project folder ${JSON.stringify(cutText(root, 200))}, which is refused: ${problem}, so it is not a folder inside the repository; nothing was read`);
}

/** What a saved plan of several projects gives the run's settings (SettingSources.saved): its projects and the policy files its entries name; {} for a plan of one. */
export function savedProjects(plan: Pick<Plan, 'projects' | 'changes' | 'drift'>): { projects?: readonly PlanProject[]; sources?: { file: string; project: string }[] } {
  return plan.projects === undefined ? {} : { projects: plan.projects, sources: savedSources(plan) };
}

/** @returns the policy files a joined plan's entries name, each with its project. */
export function savedSources(plan: Pick<Plan, 'changes' | 'drift'>): { file: string; project: string }[] {
  const entries = [...plan.changes, ...plan.drift];
  return entries.flatMap((entry) => (entry.source === undefined || entry.project === undefined || 'reason' in entry && entry.reason === 'pruned' ? [] : [{ file: entry.source.file, project: entry.project }]));
}

/** The nearest project file at or above `file`'s directory, up to `top`. */
function nearestProjectFile(file: string, top: string): string | null {
  for (let at = path.dirname(file); ; at = path.dirname(at)) {
    const candidate = path.join(at, PROJECT_FILE);
    if (existsSync(candidate)) return candidate;
    if (at === top || !isInside(top, at) || path.dirname(at) === at) return null;
  }
}
