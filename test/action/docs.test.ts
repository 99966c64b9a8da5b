/**
 * docs/github-action.md is the action's reference and stays true to action.yml: every input with
 * its default, every output, and links to the example workflows (and action.yml) that resolve
 * from docs/.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPO_ROOT } from './support/run-action.js';

const PAGE = join(REPO_ROOT, 'docs/github-action.md');
const page = readFileSync(PAGE, 'utf8');
const action = parse(readFileSync(join(REPO_ROOT, 'action.yml'), 'utf8')) as {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, unknown>;
};

/** The rows of the markdown table under a `## heading`, as cells. */
function tableUnder(heading: string): string[][] {
  const start = page.indexOf(`\n## ${heading}\n`);
  expect(start, heading).toBeGreaterThan(0);
  const end = page.indexOf('\n## ', start + 1);
  const section = page.slice(start, end < 0 ? undefined : end);
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => line.slice(1, -1).split(' | ').map((cell) => cell.trim()));
}

describe('docs/github-action.md', () => {
  it('lists every input of action.yml once, with its default there', () => {
    const rows = tableUnder('Inputs');
    expect(rows.map((row) => row[0])).toEqual(Object.keys(action.inputs).map((name) => `\`${name}\``));
    for (const [name, input] of Object.entries(action.inputs)) {
      const row = rows.find((cells) => cells[0] === `\`${name}\``);
      expect(row?.[1], name).toBe(input.default === '' || input.default === undefined ? "`''`" : `\`${input.default}\``);
    }
  });

  it('lists every output of action.yml once', () => {
    expect(tableUnder('Outputs').map((row) => row[0])).toEqual(Object.keys(action.outputs).map((name) => `\`${name}\``));
  });

  it('links only to example workflows and files that exist, relative to docs/', () => {
    const links = [...page.matchAll(/\]\((\.\.\/[^)#\s]+)\)/gu)].map((match) => match[1] as string);
    expect(links.some((link) => link.startsWith('../examples/workflows/'))).toBe(true);
    for (const link of links) expect(existsSync(resolve(dirname(PAGE), link)), link).toBe(true);
    // A link written from the repository root would not resolve from docs/.
    expect(page).not.toMatch(/\]\(examples\//u);
  });

  it('says what the release-4 features need: deployments: write, security-events: write, the adopt token and setting', () => {
    expect(page).toContain('`deployments: write`');
    expect(page).toContain('`security-events: write`');
    expect(page).toContain('Use `deployment-environment` **or** a job-level `environment:`');
    expect(page).toContain("a pull request opened with the workflow's `GITHUB_TOKEN` starts no workflow");
    expect(page).toContain('"Allow GitHub Actions\n  to create and approve pull requests" must be on');
  });
});
