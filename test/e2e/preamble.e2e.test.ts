/** By default a run prints one preamble line on stderr (project file and service); --verbose adds the rest. */
import { describe, expect, it } from 'vitest';
import { cli, policy, tempProject, type TempProject } from './support.js';
import { afterEach } from 'vitest';

let project: TempProject | undefined;
afterEach(async () => {
  await project?.cleanup();
});

describe('the preamble', () => {
  it('is one line, naming the project file and the service host; --verbose says why the emulator and shows deprecations', async () => {
    project = await tempProject({ 'a.autojoin.yaml': policy('a', ['a.example']), 'autojoin-sync.yaml': 'defaults:\n  scopeType: team\n' });
    const run = await cli(['plan'], { cwd: project.dir });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^using project file autojoin-sync\.yaml; service host 127\.0\.0\.1:\d+ \(embedded emulator, state in \.autojoin-sync\/emulator\.json\)$/)]);
    const verbose = await cli(['plan', '--verbose'], { cwd: project.dir });
    expect(verbose.stderr).toContain('note: AUTOJOIN_BASE_URL is not set; using the embedded emulator (state in .autojoin-sync/emulator.json)');
    expect(verbose.stderr).not.toContain('deprecated'); // the default read, call 2b, is no deprecated call
    const deprecated = await cli(['plan', '--verbose', '--read', 'by-group'], { cwd: project.dir });
    expect(deprecated.stderr).toContain('notice: the by-group listing is deprecated; use --read by-scope, or the default --read autojoin');
    expect((await cli(['plan', '--read', 'by-group'], { cwd: project.dir })).stderr).not.toContain('deprecated');
  });
});
