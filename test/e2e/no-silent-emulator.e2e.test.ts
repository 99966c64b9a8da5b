/**
 * Never a silent emulator: without a base URL, in CI (any common CI variable) or with an API key,
 * every command that talks to the service exits 1 naming AUTOJOIN_BASE_URL and writes nothing;
 * --emulator or AUTOJOIN_BASE_URL=embedded opts in, and the plan says where it ran.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cli, policy, tempProject, type TempProject } from './support.js';

let project: TempProject | undefined;
beforeAll(assertBuilt);
afterEach(async () => project?.cleanup());

const CI_SETTINGS: Record<string, string>[] = [
  { CI: 'true' },
  { CI: '1' },
  { CI: 'woodpecker' },
  { TF_BUILD: 'True' },
  { JENKINS_URL: 'https://jenkins.example.com/' },
  { GITLAB_CI: 'true' },
  { BUILDKITE: 'true' },
  { CIRCLECI: 'true' },
  { TRAVIS: 'true' },
  { TEAMCITY_VERSION: '2024.3' },
  { BITBUCKET_BUILD_NUMBER: '17' },
  { CODEBUILD_BUILD_ID: 'proj:1234' },
  { GITHUB_ACTIONS: 'true' },
  { CI: 'false', TF_BUILD: 'True' },
];

async function expectRefused(args: string[], env: Record<string, string>): Promise<void> {
  const dir = (project as TempProject).dir;
  const result = await cli(args, { cwd: dir, env });
  const where = `${args.join(' ')} with ${JSON.stringify(env)}`;
  expect(result.code, where).toBe(1);
  expect(result.stderr, where).toContain('AUTOJOIN_BASE_URL is not set');
  expect(result.stderr, where).toContain('--emulator');
  expect(result.stdout, where).toBe('');
  expect(existsSync(join(dir, '.autojoin-sync')), where).toBe(false);
}

describe('without a base URL', () => {
  it.each(CI_SETTINGS)('in CI (%o) apply exits 1 naming AUTOJOIN_BASE_URL and writes nothing', async (env) => {
    project = await tempProject({ 'a.autojoin.yaml': policy('a', ['a.example']) });
    await expectRefused(['apply', '--yes'], env);
  });

  it('every command that talks to the service refuses in CI', async () => {
    project = await tempProject({ 'a.autojoin.yaml': policy('a', ['a.example']) });
    for (const args of [['plan'], ['import', '--scope', 'team/a', '--out', '-', '--component-id', 'c'], ['presets', 'email', 'list']]) {
      await expectRefused(args, { TF_BUILD: 'True' });
    }
  });

  it('an AUTOJOIN_API_KEY without a base URL is refused outside CI too: the key was meant for a real service', async () => {
    project = await tempProject({ 'a.autojoin.yaml': policy('a', ['a.example']) });
    await expectRefused(['apply', '--yes'], { AUTOJOIN_API_KEY: 'a-real-key' });
    const result = await cli(['plan'], { cwd: project.dir, env: { AUTOJOIN_API_KEY: 'a-real-key' } });
    expect(result.stderr).toContain('AUTOJOIN_API_KEY is set');
    expect(result.stderr).not.toContain('a-real-key');
  });

  it('CI=false or CI=0 alone is not CI', async () => {
    project = await tempProject({ 'a.autojoin.yaml': policy('a', ['a.example']) });
    for (const value of ['false', '0']) {
      const result = await cli(['plan'], { cwd: project.dir, env: { CI: value } });
      expect(result.code, value).toBe(0);
    }
  });

  it('--emulator and AUTOJOIN_BASE_URL=embedded opt in anywhere, and the plan says where it ran', async () => {
    project = await tempProject({ 'a.autojoin.yaml': policy('a', ['a.example']) });
    const env = { CI: 'true', AUTOJOIN_API_KEY: 'a-real-key' };
    const text = await cli(['plan', '--emulator'], { cwd: project.dir, env });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^Target: the embedded emulator \(its state file is named on stderr\), not an Invitation Service/);
    expect(text.stderr).toContain('(embedded emulator, state in .autojoin-sync/emulator.json)');
    const markdown = await cli(['plan', '--format', 'markdown'], { cwd: project.dir, env: { ...env, AUTOJOIN_BASE_URL: 'embedded' } });
    expect(markdown.code, markdown.stderr).toBe(0);
    expect(markdown.stdout).toContain(':warning: Target: the embedded emulator');
    const json = await cli(['plan', '--format', 'json', '--emulator'], { cwd: project.dir, env: { AUTOJOIN_BASE_URL: 'https://invitations.example.com' } });
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ target: 'embedded' });

    const saved = join(project.dir, 'plan.json');
    expect((await cli(['plan', '--emulator', '--out', saved], { cwd: project.dir, env })).code).toBe(0);
    const applied = await cli(['apply', '--emulator', '--yes', '--plan', saved], { cwd: project.dir, env });
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('Applied 1, failed 0, skipped 0.');
  });
});
