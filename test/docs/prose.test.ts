/**
 * The prose held to the code (reference.test.ts holds the flag list, the action's inputs, the
 * schema keys and the links): every repository path README.md and docs/ name exists; every
 * "(docs/PAGE.md, "Heading")" reference in src/ resolves to a heading of that page; every message
 * the README quotes is one the program prints (each quote is run, or its words found in src/); and
 * src/environment.ts lists every environment variable src/ reads, as --help, docs/cli.md and the
 * README name them.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CI_VARIABLES } from '../../src/run/ci.js';
import { ENVIRONMENT, environmentNames } from '../../src/environment.js';
import { cliReference } from '../../scripts/cli-reference.js';
import { slug } from './reference.test.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8');
const PAGES = ['README.md', ...readdirSync(path.join(ROOT, 'docs')).filter((file) => file.endsWith('.md')).map((file) => `docs/${file}`)];

/** Every file under `dir` (relative to the root), recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const file = `${dir}/${name}`;
    return statSync(path.join(ROOT, file)).isDirectory() ? filesUnder(file) : [file];
  });
}

const SOURCES = filesUnder('src').filter((file) => file.endsWith('.ts') && !file.startsWith('src/generated/'));

describe('repository paths the docs name', () => {
  /** Top-level directories and files a repository path starts with. */
  const TOP = /^(?:src|test|docs|schemas|examples|scripts|bench|\.github|\.ci)\/|^(?:README\.md|CHANGELOG\.md|action\.yml|package\.json|vitest\.config\.ts|tsconfig\.json|eslint\.config\.js)$/u;
  /** A path written anywhere, in code spans or not, with a file's extension. */
  const BARE = /(?<![\w./-])((?:src|test|docs|schemas|examples|scripts|bench)\/[\w./-]*\.(?:ts|js|mjs|json|md|ya?ml))\b/gu;
  /** (`.autojoin-sync/` holds what a run writes, so the paths under it are not checked.) Paths of other repositories, quoted where the docs compare this one with them. */
  const ELSEWHERE = new Set(['src/vortex_sdk/types.py', 'src/vortex_sdk/vortex.py', 'src/types.rs', 'src/client.rs']);
  /** docs/security.md's test references are issue 48's to fix; until then its missing paths are listed here, not failed. */
  const PENDING: Record<string, RegExp> = { 'docs/security.md': /^test\// };

  /** @returns the repository paths a page names: words of its code spans, and bare paths with an extension */
  function namedPaths(text: string): string[] {
    const spans = [...text.matchAll(/`([^`\n]+)`/gu)].flatMap((match) => (match[1] as string).split(/\s+/u));
    const bare = [...text.matchAll(BARE)].map((match) => match[1] as string);
    return [...new Set([...spans, ...bare].map((word) => word.replace(/^[("']+|[),;:"'.]+$/gu, '').replace(/:\d+(?::\d+)?:?$/u, '')))]
      .filter((word) => TOP.test(word) && !/[*…{}<>]|FILE|NAME|\bK\b|\.autojoin-sync\//u.test(word) && !ELSEWHERE.has(word));
  }

  it('finds the paths it checks (a pattern that matched nothing would pass)', () => {
    expect(namedPaths('see `src/plan/diff.ts` and test/docs/reference.test.ts, `a/b`, `examples/x.yaml:4:1`')).toEqual(['src/plan/diff.ts', 'examples/x.yaml', 'test/docs/reference.test.ts']);
    expect(namedPaths(read('README.md')).length).toBeGreaterThan(5);
  });

  it.each(PAGES)('every repository path %s names exists', (page) => {
    const missing = namedPaths(read(page)).filter((file) => !existsSync(path.join(ROOT, file)) && !(PENDING[page]?.test(file) ?? false));
    expect(missing).toEqual([]);
  });
});

describe('references from src/ to the docs', () => {
  /** `(README, "Drift")`, `(docs/cli.md, "Exit codes")`, `README "Warnings"`, `(README, Security)`. */
  const REFERENCE = /\b(README|docs\/[\w-]+\.md)(?:,\s*|\s+)(?:"([^"\n]+)"|([A-Z][\w ]*?)\))/gu;

  /** The headings of a markdown page, code spans unwrapped. */
  function headings(file: string): string[] {
    return [...read(file).replace(/^```[\s\S]*?^```/gmu, '').matchAll(/^#{1,6} (.+)$/gmu)].map((match) => (match[1] as string).replace(/`/gu, '').trim());
  }

  /** `Drift` names the heading `Drift` or `Drift: changes made outside this repository`. */
  function resolves(file: string, heading: string): boolean {
    if (!existsSync(path.join(ROOT, file))) return false;
    return headings(file).some((found) => found === heading || found.startsWith(`${heading}:`) || slug(found) === slug(heading));
  }

  function references(): { where: string; file: string; heading: string }[] {
    return SOURCES.flatMap((source) =>
      [...read(source).matchAll(REFERENCE)].map((match) => ({
        where: `${source}:${read(source).slice(0, match.index).split('\n').length}`,
        file: match[1] === 'README' ? 'README.md' : (match[1] as string),
        heading: (match[2] ?? match[3]) as string,
      })),
    );
  }

  it('finds the references it checks', () => {
    expect(references().length).toBeGreaterThan(20);
    expect(resolves('docs/ownership-pruning-drift.md', 'Drift')).toBe(true);
    expect(resolves('README.md', 'Drift')).toBe(false);
  });

  it('each names a heading of the page it names', () => {
    expect(references().filter((ref) => !resolves(ref.file, ref.heading)).map((ref) => `${ref.where}: ${ref.file} has no heading "${ref.heading}"`)).toEqual([]);
  });

  it('each docs/ page a src/ comment names exists', () => {
    const named = SOURCES.flatMap((source) => [...read(source).matchAll(/\bdocs\/[\w-]+\.md\b/gu)].map((match) => match[0]));
    expect([...new Set(named)].filter((file) => !existsSync(path.join(ROOT, file)))).toEqual([]);
  });
});

describe('the environment', () => {
  const listed = new Set([...environmentNames(), ...CI_VARIABLES]);

  /** Every variable src/ reads by name: `env.NAME`, `process.env.NAME`, `env['NAME']`, `env["NAME"]`. */
  function readInSource(): Map<string, string> {
    const found = new Map<string, string>();
    for (const source of SOURCES) {
      for (const match of read(source).matchAll(/\benv(?:\.([A-Z][A-Z0-9_]*)|\[\s*['"]([A-Za-z][\w]*)['"]\s*\])/gu)) found.set((match[1] ?? match[2]) as string, source);
    }
    return found;
  }

  it('finds the reads it checks', () => {
    const reads = readInSource();
    expect(reads.get('AUTOJOIN_DNS_SERVERS')).toBe('src/run/dns.ts');
    expect(reads.has('AUTOJOIN_BASE_URL')).toBe(true);
  });

  it('src/environment.ts lists every variable src/ reads', () => {
    expect([...readInSource()].filter(([name]) => !listed.has(name)).map(([name, source]) => `${name} (${source})`)).toEqual([]);
  });

  it('lists each variable once', () => {
    const names = environmentNames();
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
  });

  it("docs/cli.md's Environment section names every variable but the action's", () => {
    const page = read('docs/cli.md');
    const section = page.slice(page.indexOf('## Environment'), page.indexOf('\n## ', page.indexOf('## Environment') + 3));
    const names = ENVIRONMENT.filter((entry) => entry.audience !== 'action').flatMap((entry) => entry.names);
    expect(names.filter((name) => !section.includes(`\`${name}\``))).toEqual([]);
  });

  it('every variable the README or docs/cli.md names is one the tool reads (or the test suite, AUTOJOIN_LONG_TESTS)', () => {
    const listed = new Set([...environmentNames(), ...CI_VARIABLES, 'AUTOJOIN_LONG_TESTS']);
    const named = ['README.md', 'docs/cli.md'].flatMap((page) => [...read(page).matchAll(/`((?:AUTOJOIN|VORTEX)_[A-Z_]+)/gu)].map((match) => match[1] as string));
    expect([...new Set(named)].filter((name) => !listed.has(name))).toEqual([]);
  });
});

describe("docs/cli.md's prose about each command", () => {
  const page = read('docs/cli.md');
  const prosePart = page.slice(page.indexOf('## Commands'), page.indexOf('<!-- cli-flags -->'));

  /** The prose section of each command: `### \`plan [PATH…]\`` up to the next heading. */
  function sections(): Map<string, string> {
    const found = new Map<string, string>();
    for (const match of prosePart.matchAll(/^### `([a-z-]+)[^\n]*\n([\s\S]*?)(?=^##)/gmu)) found.set(match[1] as string, match[2] as string);
    return found;
  }

  it('names the --format choices each command has, all of them', async () => {
    const list = await cliReference();
    const choices = new Map<string, string[]>();
    for (const match of list.matchAll(/^### `autojoin-sync ([a-z-]+) [^\n]*\n[\s\S]*?(?=^### |(?![\s\S]))/gmu)) {
      const format = /^\| `--format <format>` \|.*?\(choices: ([^)]*?)(?:, default|\))/mu.exec(match[0]);
      if (format) choices.set(match[1] as string, [...(format[1] as string).matchAll(/"([a-z]+)"/gu)].map((choice) => choice[1] as string).sort());
    }
    expect(choices.get('validate')).toContain('sarif');
    const wrong = [...sections()].flatMap(([command, text]) =>
      [...text.matchAll(/`--format ([a-z]+(?:\\?\|[a-z]+)*)`/gu)].map((match) => ({ command, named: (match[1] as string).split(/\\?\|/u).sort() })).filter(({ command, named }) => choices.has(command) && named.join() !== choices.get(command)?.join()),
    );
    expect(wrong.map(({ command, named }) => `${command}: --format ${named.join('|')}, but it takes ${choices.get(command)?.join('|')}`)).toEqual([]);
  });

  it('gives each command that takes flags of its own a table of them', async () => {
    const list = await cliReference();
    const withFlags = [...list.matchAll(/^### `autojoin-sync ([a-z-]+) \[options\][^\n]*\n[\s\S]*?(?=^### |(?![\s\S]))/gmu)].filter((match) => /^\| `--(?!format|help)/mu.test(match[0])).map((match) => match[1] as string);
    expect(withFlags).toContain('adopt');
    const tables = sections();
    expect(['plan', 'apply', 'adopt'].filter((command) => withFlags.includes(command) && !/^\| flag \| meaning \|/mu.test(tables.get(command) ?? ''))).toEqual([]);
  });
});
