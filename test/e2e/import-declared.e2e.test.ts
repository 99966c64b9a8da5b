/** `import` refuses a scope a policy file already declares, naming file:line (exit 1). */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { cli, policy, setLive, startTestEmulator, tempProject, useEmulatorProject, type TempProject } from './support.js';

let emulator: Emulator;
let project: TempProject;
useEmulatorProject(() => ({ emulator, project }));

describe('import of a declared scope', () => {
  it('refuses it with the file and line that declares it, and writes nothing', async () => {
    emulator = await startTestEmulator();
    await setLive(emulator, 'eng-api', ['eng.example']);
    await setLive(emulator, 'other', ['other.example']);
    project = await tempProject({ 'policies/eng.autojoin.yaml': `# the API team\n${policy('eng-api', ['eng.example'])}` });
    const run = await cli(['import', '--scope', 'team/other', '--scope', 'team/eng-api', '--out', 'policies', '--component-id', 'cmp_1'], { cwd: project.dir, emulator });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/policies\/eng\.autojoin\.yaml:\d+:\d+: team\/eng-api is declared here already/);
    expect(run.stderr).toContain('nothing was written');
    expect(await readdir(join(project.dir, 'policies'))).toEqual(['eng.autojoin.yaml']);
  });
});
