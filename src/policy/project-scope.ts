/**
 * Which project a policy file is read under, in a run of several (design: "Many projects, one
 * run"): the project whose directory is the nearest at or above the file.
 */
import path from 'node:path';
import { memoized } from '../memo.js';
import type { ProjectConfig } from './types.js';

/** A project as the loader reads its files: the directory it governs (absolute) and its project file's content. */
export interface ProjectScope {
  dir: string;
  config: ProjectConfig;
}

/**
 * @returns the project a file (named relative to `cwd`) is read under: of `options.projects`, the
 *   one with the nearest directory at or above it (one lookup a directory), else `options.project`
 */
export function projectLookup(options: { project?: ProjectConfig; projects?: readonly ProjectScope[] }, cwd: string): (file: string) => ProjectConfig {
  const fallback = options.project ?? {};
  const projects = options.projects;
  if (projects === undefined || projects.length === 0) return () => fallback;
  if (projects.length === 1) {
    const only = projects[0]?.config ?? fallback;
    return () => only;
  }
  const byDir = new Map(projects.map((one) => [one.dir, one.config]));
  const nearest = memoized((dir: string): ProjectConfig => {
    const found = byDir.get(dir);
    if (found) return found;
    const up = path.dirname(dir);
    return up === dir ? fallback : nearest(up);
  });
  return (file) => nearest(path.dirname(path.resolve(cwd, file)));
}

