/**
 * Every message the README quotes is one the program prints: each quote of Troubleshooting and
 * Networks, and each result the five-minute tour shows, is run here in-process (the emulator over
 * loopback, real git repositories) and matched against what the run printed, `…` standing for any
 * text. A quote the README adds without a run here fails the first test.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { actionWording } from '../../src/action/action-wording.js';
import type { Emulator } from '../../src/emulator/index.js';
import { autojoinStatePath } from '../../src/service/paths.js';
import { moreWarningsLine } from '../../src/render/warning-limit.js';
import { policy, setLive, tempProject } from '../e2e/support.js';
import { commitAll, git } from '../support/git.js';
import { runInProcess } from '../support/in-process.js';
import { emulatorEstate, NO_CI } from '../support/emulator-estate.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');

/** The README's section under `## heading`. */
function section(heading: string): string {
  const start = README.indexOf(`\n## ${heading}\n`);
  expect(start, heading).toBeGreaterThanOrEqual(0);
  const end = README.indexOf('\n## ', start + 4);
  return README.slice(start, end < 0 ? undefined : end);
}

/** A quote as a pattern: `…` is any text, the rest literal. */
function pattern(quote: string): RegExp {
  return new RegExp(quote.split(/\s*…\s*/u).map((part) => part.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')).join('[\\s\\S]*?'), 'u');
}

/** Everything a run printed, one space for each run of spaces (the README aligns nothing). */
function printed(run: { stdout: string; stderr: string }): string {
  return `${run.stdout}\n${run.stderr}`.replace(/ {2,}/gu, ' ');
}

const estate = emulatorEstate();
const against = estate.against;

const manyDomains = (count: number): string[] => Array.from({ length: count }, (_, index) => `d${index}.example`);

/** Each quote of Troubleshooting and Networks, and a run that prints it. */
const QUOTES: Record<string, () => Promise<string>> = {
  'error: stdin is not a terminal, so apply cannot ask: pass --yes to apply the plan above': async () => {
    const { dir, env } = await against({ 'a.autojoin.yaml': policy('acme', ['acme.com']) });
    return printed(await runInProcess(['apply'], { cwd: dir, env }));
  },
  'error: AUTOJOIN_BASE_URL is not set and this looks like CI (TF_BUILD is set): no Invitation Service to talk to, and nothing was written. …': async () => {
    const { dir } = await against({ 'a.autojoin.yaml': policy('acme', ['acme.com']) });
    return printed(await runInProcess(['plan'], { cwd: dir, env: { ...NO_CI, TF_BUILD: 'True', AUTOJOIN_BASE_URL: undefined, AUTOJOIN_API_KEY: undefined } }));
  },
  'error: no policy files (autojoin.yaml, *.autojoin.yaml or .yml) under polices; nothing was done. …': async () => {
    const { dir, env } = await against({ 'policies/a.autojoin.yaml': policy('acme', ['acme.com']) });
    return printed(await runInProcess(['validate', 'polices'], { cwd: dir, env }));
  },
  'error: pruning reads the whole git history, but this is a shallow clone …': async () => {
    const { dir, env } = await against({ 'a.autojoin.yaml': policy('acme', ['acme.com']) });
    commitAll(dir);
    writeFileSync(path.join(dir, 'b.autojoin.yaml'), policy('beta', ['beta.com']));
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'second');
    git(dir, 'clone', '-q', '--depth', '1', `file://${dir}`, 'shallow');
    return printed(await runInProcess(['plan'], { cwd: path.join(dir, 'shallow'), env }));
  },
  [`error: reading team/acme-eng failed: [GET] ${autojoinStatePath({ scopeType: 'team', scope: 'acme-eng' })}: 401 … (check AUTOJOIN_API_KEY)`]: async () => {
    const { dir, env } = await against({ 'a.autojoin.yaml': policy('acme-eng', ['acme.com']) });
    return printed(await runInProcess(['plan'], { cwd: dir, env: { ...env, AUTOJOIN_API_KEY: 'not-the-key' } }));
  },
  'AUTOJOIN_API_KEY is not set: the invitation calls (listings, autojoin) need an API key': async () => {
    const { dir, env } = await against({ 'a.autojoin.yaml': policy('acme', ['acme.com']) });
    return printed(await runInProcess(['plan'], { cwd: dir, env: { ...env, AUTOJOIN_API_KEY: undefined } }));
  },
  'policies/acme.autojoin.yaml:4:1: error: missing required key "componentId" (or set defaults.componentId in autojoin-sync.yaml)': async () => {
    const { dir, env } = await against({ 'policies/acme.autojoin.yaml': '# yaml-language-server: $schema=../schemas/autojoin.schema.json\n# Acme\n---\nscope: acme\nscopeType: team\n\ndomains:\n  - acme.com\n' });
    return printed(await runInProcess(['validate', 'policies'], { cwd: dir, env }));
  },
  '… is a webmail domain; the service would reject it with 400': async () => {
    const { dir, env } = await against({ 'a.autojoin.yaml': policy('acme', ['gmail.com']) });
    return printed(await runInProcess(['validate'], { cwd: dir, env }));
  },
  '… is a public suffix …': async () => {
    const { dir, env } = await against({ 'a.autojoin.yaml': policy('acme', ['co.uk']) });
    return printed(await runInProcess(['validate'], { cwd: dir, env }));
  },
  'unknown key "domians" (did you mean "domains"?)': async () => {
    const { dir, env } = await against({ 'a.autojoin.yaml': policy('acme', ['acme.com']).replace('domains:', 'domians:') });
    return printed(await runInProcess(['validate'], { cwd: dir, env }));
  },
  'error: refused by a safety limit: plan removes 12 domains, more than the limit of 10 (--max-removals or safety.maxRemovals), …; to go ahead, run again with --max-removals 12': async () => {
    const { dir, env } = await against({ 'autojoin-sync.yaml': 'safety:\n  maxRemovals: 10\n', 'a.autojoin.yaml': policy('acme', manyDomains(13)) });
    commitAll(dir);
    expect((await runInProcess(['apply', '--yes', '--max-removals', '100'], { cwd: dir, env })).code).toBe(0);
    writeFileSync(path.join(dir, 'a.autojoin.yaml'), policy('acme', manyDomains(1)));
    return printed(await runInProcess(['apply', '--yes'], { cwd: dir, env }));
  },
  'plan clears 8 of 10 scopes with active autojoin (80%) because their policy files were deleted, more than safety.maxRemovalPercent (50%)': async () => {
    const files = Object.fromEntries(Array.from({ length: 10 }, (_, index) => [`s${index}.autojoin.yaml`, policy(`s${index}`, [`s${index}.example`])]));
    const { dir, env } = await against({ ...files, 'autojoin-sync.yaml': 'safety:\n  maxRemovalPercent: 50\n' });
    commitAll(dir);
    expect((await runInProcess(['apply', '--yes'], { cwd: dir, env })).code).toBe(0);
    for (let index = 0; index < 8; index += 1) rmSync(path.join(dir, `s${index}.autojoin.yaml`));
    return printed(await runInProcess(['apply', '--yes'], { cwd: dir, env }));
  },
  // The action words the same refusal with its inputs (src/action/action-wording.ts).
  '… (input max-removals or safety.maxRemovals) …; to go ahead, run again with input max-removals: 12': () =>
    Promise.resolve(`… (${actionWording({ setting: 'maxRemovals' })} or safety.maxRemovals) …; to go ahead, run again with ${actionWording({ setting: 'maxRemovals', value: 12 })}`),
  'error: the saved plan is stale: the live state of 1 scope(s) changed since it was made (team/acme-eng); nothing was written. Make a new plan and apply that.': async () => {
    const { dir, env } = await against({ 'a.autojoin.yaml': policy('acme-eng', ['acme.com']) });
    expect((await runInProcess(['plan', '--out', 'plan.json'], { cwd: dir, env })).code).toBe(0);
    await setLive(estate.emulator as Emulator, 'acme-eng', ['moved.example']);
    return printed(await runInProcess(['apply', '--plan', 'plan.json', '--yes'], { cwd: dir, env }));
  },
};

/** The bold quotes of Troubleshooting, and the quotes inside its paragraphs. */
function troubleshootingQuotes(): string[] {
  const text = section('Troubleshooting');
  return [...text.matchAll(/\*\*`([^`]+)`\*\*/gu)].map((match) => match[1] as string);
}

describe('the README quotes what the program prints', () => {
  it('each bold quote of Troubleshooting has a run here', () => {
    const quotes = troubleshootingQuotes();
    expect(quotes.length).toBeGreaterThanOrEqual(8);
    expect(quotes.filter((quote) => !(quote in QUOTES))).toEqual([]);
  });

  it.each(Object.keys(QUOTES))('%s', async (quote) => {
    expect(README.replace(/\s+/gu, ' ')).toContain(quote.replace(/\s+/gu, ' '));
    const output = await (QUOTES[quote] as () => Promise<string>)();
    expect(output).toMatch(pattern(quote));
  });

  it("the TLS example of Networks reads the path the default read asks for (call 2b), in the 401 example's form", () => {
    const block = /```\n(error: reading team\/acme failed: .*)\n```/u.exec(section('Networks'))?.[1] ?? '';
    expect(block).toContain(`[GET] ${autojoinStatePath({ scopeType: 'team', scope: 'acme' })}: TLS certificate problem: `);
    const tls = readFileSync(path.join(ROOT, 'src/service/tls.ts'), 'utf8');
    expect(tls).toContain('TLS certificate problem');
    expect(block).toContain(/const CA_HINT = '([^']+)'/u.exec(tls)?.[1] as string);
  });
});

describe('the five-minute tour shows what the commands print', () => {
  const tour = section('A five-minute tour');
  /** `npx autojoin-sync ARGS   # RESULT`: the command's arguments and what the README says it prints. */
  const steps = [...tour.matchAll(/^npx autojoin-sync (.+?)\s+# (.+)$/gmu)].map((match) => ({ args: (match[1] as string).split(/\s+/u), result: match[2] as string }));
  const policyText = /cat > my-policies\/design\.autojoin\.yaml <<'EOF'\n([\s\S]*?)\nEOF/u.exec(tour)?.[1] as string;
  const planShown = /npx autojoin-sync plan my-policies\n```\n\n```\n([\s\S]*?)\n```/u.exec(tour)?.[1] as string;

  it('runs every step as written, in order, against the embedded emulator', async () => {
    expect(steps.length).toBeGreaterThanOrEqual(6);
    expect(policyText).toContain('scope: acme-design');
    estate.project = await tempProject({ 'my-policies/design.autojoin.yaml': `${policyText}\n` });
    const env = { ...NO_CI, AUTOJOIN_BASE_URL: undefined, AUTOJOIN_API_KEY: undefined };
    git((estate.project).dir, 'init', '-q');
    const plan = await runInProcess(['plan', 'my-policies'], { cwd: (estate.project).dir, env });
    expect(plan.stdout).toContain(planShown);
    for (const step of steps) {
      if (step.args[0] === 'import') rmSync(path.join((estate.project).dir, 'my-policies/design.autojoin.yaml'));
      const run = await runInProcess(step.args, { cwd: (estate.project).dir, env });
      expect(printed(run), `autojoin-sync ${step.args.join(' ')}`).toContain(step.result.replace(/ {2,}/gu, ' '));
    }
  });
});

describe("docs/governance.md's inventory --blame sample", () => {
  it('has the columns and the commit ids the command prints', async () => {
    const page = readFileSync(path.join(ROOT, 'docs/governance.md'), 'utf8');
    const sample = /\$ autojoin-sync inventory policies\/ --format markdown --blame\n([\s\S]*?)\n```/u.exec(page)?.[1] as string;
    const [header, , ...rows] = sample.split('\n');
    estate.project = await tempProject({ 'policies/eng.autojoin.yaml': policy('acme-eng', ['acme.com']) });
    commitAll((estate.project).dir);
    const run = await runInProcess(['inventory', 'policies/', '--format', 'markdown', '--blame'], { cwd: (estate.project).dir, env: NO_CI });
    const printedRows = run.stdout.trim().split('\n');
    expect(header).toBe(printedRows[0]);
    const commitColumn = (header as string).split('|').map((cell) => cell.trim()).indexOf('commit');
    const commitOf = (row: string): string => row.split('|')[commitColumn]?.trim() ?? '';
    expect(commitOf(printedRows[2] as string)).toMatch(/^[0-9a-f]{40}$/u);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.map(commitOf).filter((commit) => !/^[0-9a-f]{40}$/u.test(commit))).toEqual([]);
  });
});

describe('the count of warnings left out, as the docs quote it', () => {
  it('is the one wording src/render/warning-limit.ts makes, in every page that quotes it', () => {
    const pages = ['README.md', 'docs/cli.md', 'docs/governance.md', 'docs/github-action.md'];
    const quotes = pages.flatMap((page) =>
      [...readFileSync(path.join(ROOT, page), 'utf8').replace(/\s+/gu, ' ').matchAll(/(?:and )?[\d,]+ (?:more )?[a-z-]+ warnings?; [^`\n)]+/gu)].map((match) => ({ page, quote: match[0].trim() })),
    );
    expect(quotes.length).toBeGreaterThanOrEqual(3);
    const wrong = quotes.filter(({ quote }) => {
      const match = /^and ([\d,]+) more ([a-z-]+) warnings?; (.+)$/u.exec(quote);
      if (!match) return true;
      const more = Number((match[1] as string).replace(/,/gu, ''));
      return ![moreWarningsLine(match[2] as string, more), moreWarningsLine(match[2] as string, more, 'the annotations list them all')].includes(quote);
    });
    expect(wrong).toEqual([]);
  });
});
