/**
 * The README and the pages in docs/ stay true and walkable: every relative link resolves (file and
 * #anchor), the README stays short with a two-command quick start, the list of commands and flags
 * in docs/cli.md is the program's own (all commands loaded in-process), and the key tables of
 * docs/policy-files.md match the JSON Schemas key for key.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import policySchema from '../../schemas/autojoin.schema.json' with { type: 'json' };
import projectSchema from '../../schemas/project.schema.json' with { type: 'json' };
import { cliReference, generatedPart } from '../../scripts/cli-reference.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8');
const PAGES = ['README.md', ...readdirSync(path.join(ROOT, 'docs')).filter((file) => file.endsWith('.md')).map((file) => `docs/${file}`)];

/**
 * Pages other branches of this release create (the README links them already). A link to one
 * resolves while it is missing; once it exists it is checked like any other, and this list must
 * lose it (the test below says so).
 */
const PAGES_TO_COME: string[] = [];

/** Markdown outside fenced code blocks and inline code spans. */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gmu, '').replace(/`[^`\n]*`/gu, '');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, each space a hyphen. */
export function slug(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/gu, '-');
}

/** The anchors of a markdown page: its headings (repeats get -1, -2…) and explicit ids. */
function anchors(text: string): Set<string> {
  const found = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of text.replace(/^```[\s\S]*?^```/gmu, '').matchAll(/^#{1,6} (.+)$/gmu)) {
    const base = slug(match[1] as string);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    found.add(count === 0 ? base : `${base}-${count}`);
  }
  for (const match of text.matchAll(/<a (?:id|name)="([^"]+)"/gu)) found.add(match[1] as string);
  return found;
}

/** The relative links of a page: `[text](target)`, without web addresses and mail links. */
function relativeLinks(text: string): string[] {
  return [...prose(text).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/gu)].map((match) => match[1] as string).filter((target) => !/^[a-z][a-z+.-]*:/iu.test(target));
}

/** @returns why `target`, linked from `page`, does not resolve; null when it does */
function brokenLink(page: string, target: string): string | null {
  const [file, anchor] = target.split('#') as [string, string | undefined];
  const resolved = file === '' ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), decodeURI(file)));
  if (resolved.startsWith('../')) return null; // outside the repository: a GitHub web path such as ../../releases
  if (!existsSync(path.join(ROOT, resolved))) return PAGES_TO_COME.includes(resolved) ? null : `${resolved} does not exist`;
  if (anchor === undefined || !resolved.endsWith('.md') || statSync(path.join(ROOT, resolved)).isDirectory()) return null;
  return anchors(read(resolved)).has(anchor) ? null : `${resolved} has no heading #${anchor}`;
}

describe('links', () => {
  it('reads GitHub anchors as GitHub makes them', () => {
    expect(slug('Output: `--quiet`, `--verbose`, colour, progress')).toBe('output---quiet---verbose-colour-progress');
    expect(slug('`validate [PATH…]`')).toBe('validate-path');
    expect(slug('The project file `autojoin-sync.yaml`')).toBe('the-project-file-autojoin-syncyaml');
  });

  it.each(PAGES)('every relative link in %s resolves, #anchors included', (page) => {
    const text = read(page);
    const links = relativeLinks(text);
    const broken = links.flatMap((target) => {
      const why = brokenLink(page, target);
      return why === null ? [] : [`${target}: ${why}`];
    });
    expect(broken).toEqual([]);
  });

  it('finds the links it checks (a pattern that matched nothing would pass)', () => {
    const readme = relativeLinks(read('README.md'));
    expect(readme).toContain('docs/cli.md');
    expect(readme).toContain('#development');
    expect(brokenLink('README.md', 'docs/no-such-page.md')).toBe('docs/no-such-page.md does not exist');
    expect(brokenLink('README.md', 'docs/cli.md#no-such-heading')).toBe('docs/cli.md has no heading #no-such-heading');
  });

  it('lists as "to come" only pages that do not exist yet (remove a page from PAGES_TO_COME once it is merged)', () => {
    expect(PAGES_TO_COME.filter((page) => existsSync(path.join(ROOT, page)))).toEqual([]);
  });

  it('the README links every page in docs/, and the pages to come', () => {
    const linked = new Set(relativeLinks(read('README.md')).map((target) => target.split('#')[0]));
    const pages = [...PAGES.filter((page) => page.startsWith('docs/')), ...PAGES_TO_COME].filter((page) => page !== 'docs/index.md');
    expect(pages.filter((page) => !linked.has(page))).toEqual([]);
  });
});

describe('the README', () => {
  const readme = read('README.md');

  it('has at most 400 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(400);
  });

  it('has a quick start of exactly two commands', () => {
    const section = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('\n## ', readme.indexOf('## Quick start') + 3));
    const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/gu)].map((match) => match[1] as string);
    expect(blocks).toHaveLength(1);
    expect((blocks[0] as string).trim().split('\n')).toEqual(['npm ci && npm run build && npx autojoin-sync apply examples/policies --yes', 'npm test']);
  });

  it('draws the default read (call 2b, one request a scope), not a paginated listing', () => {
    const diagram = /```\n(policy files[\s\S]*?)```/u.exec(readme)?.[1] ?? '';
    expect(diagram).toContain('GET …/autojoin a scope');
    expect(diagram).not.toMatch(/list|paginated/u);
  });
});

describe('docs/cli.md', () => {
  const page = read('docs/cli.md');

  it('lists every command and flag of the program, as --help describes them (npm run docs:cli writes it)', async () => {
    expect(generatedPart(page)).toBe(await cliReference());
  });

  it('names each command, each subcommand and each long flag of the list in the prose too', async () => {
    const list = await cliReference();
    const prosePart = page.slice(0, page.indexOf('<!-- cli-flags -->'));
    const commands = [...list.matchAll(/^### `autojoin-sync ([a-z-]+(?: [a-z-]+)*)/gmu)].map((match) => match[1] as string);
    expect(commands.length).toBeGreaterThanOrEqual(15);
    expect(commands.filter((command) => !prosePart.includes(command.split(' ').at(-1) as string))).toEqual([]);
    const flags = [...new Set([...list.matchAll(/^\| `(?:-\w, )?(--[a-z][a-z0-9-]*)/gmu)].map((match) => match[1] as string))];
    expect(flags.length).toBeGreaterThan(40);
    expect(flags.filter((flag) => !prosePart.includes(flag) && flag !== '--version')).toEqual([]);
  });

  it('lists every exit code the CLI uses', () => {
    for (const code of [0, 1, 2, 3, 4]) expect(page).toMatch(new RegExp(`^\\| \`${code}\` \\| \\S`, 'mu'));
  });
});

/** The text between `<!-- name… -->` and `<!-- /name -->`. */
function region(text: string, name: string): string {
  const start = text.indexOf(`<!-- ${name}`);
  const end = text.indexOf(`<!-- /${name} -->`);
  expect(start, `region ${name}`).toBeGreaterThanOrEqual(0);
  expect(end).toBeGreaterThan(start);
  return text.slice(start, end);
}

/** First-column keys of the markdown table in a region: `| \`key\` | …`. */
function tableKeys(text: string): string[] {
  return [...text.matchAll(/^\| `([^`]+)` \|/gmu)].map((match) => match[1] as string).sort();
}

interface SchemaNode {
  properties?: Record<string, SchemaNode>;
  anyOf?: SchemaNode[];
}

/** Leaf property paths of a schema: `baseUrl`, `defaults.componentId`, … (a key that may be a value or an object, as `prune`, gives both). */
function leafKeys(schema: SchemaNode, prefix = ''): string[] {
  return Object.entries(schema.properties ?? {}).flatMap(([name, node]) => [
    ...new Set((node.anyOf ?? [node]).flatMap((branch) => (branch.properties ? leafKeys(branch, `${prefix}${name}.`) : [`${prefix}${name}`]))),
  ]);
}

describe('docs/policy-files.md', () => {
  const page = read('docs/policy-files.md');

  it('documents exactly the policy schema keys', () => {
    expect(tableKeys(region(page, 'policy-keys'))).toEqual(Object.keys(policySchema.properties).sort());
  });

  it('documents exactly the project file schema keys', () => {
    expect(tableKeys(region(page, 'project-keys'))).toEqual(leafKeys(projectSchema as SchemaNode).sort());
  });
});
