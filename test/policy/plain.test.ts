/**
 * The plain-YAML fast path (src/policy/plain.ts) against the `yaml` library: whatever text it
 * accepts, `yaml` reads as one error-free document with the same data (key order included) and
 * the same start and the same position for every key, value and list item (so diagnostics read
 * exactly as before without a second parse); what it refuses goes to `yaml` unchanged.
 */
import fc from 'fast-check';
import { LineCounter, parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parsePolicySources } from '../../src/policy/index.js';
import { parsePlainDocument } from '../../src/policy/plain.js';
import { parseYamlSource, positionAt } from '../../src/policy/parse.js';
import { locate } from '../../src/policy/locate.js';

/** What `yaml` itself makes of a text: its documents' data and start, or null when it reports an error. */
function yamlReading(text: string): { data: unknown; line: number; column: number }[] | null {
  const lineCounter = new LineCounter();
  const docs = parseAllDocuments(text, { prettyErrors: true, uniqueKeys: true, strict: true, lineCounter });
  if (!Array.isArray(docs) || docs.some((doc) => doc.errors.length > 0)) return null;
  return docs.map((doc) => ({ data: doc.toJS(), ...positionAt('f', lineCounter, doc.contents?.range[0] ?? 0) }));
}

function expectAgreement(text: string): boolean {
  const plain = parsePlainDocument({ file: 'f', text });
  if (plain === null) return false;
  const reading = yamlReading(text);
  expect(reading, text).not.toBeNull();
  expect(reading?.length, text).toBe(1);
  // JSON text, so key order counts too (ajv reports unknown keys in data order).
  expect(JSON.stringify(plain.data), text).toBe(JSON.stringify(reading?.[0]?.data));
  expect({ line: plain.start.line, column: plain.start.column }, text).toEqual({ line: reading?.[0]?.line, column: reading?.[0]?.column });
  expectSamePositions(text, plain);
  return true;
}

/** Every key, value and list item is located where `yaml`'s own document puts it, without parsing it again. */
function expectSamePositions(text: string, plain: NonNullable<ReturnType<typeof parsePlainDocument>>): void {
  const full = parseYamlSource({ file: 'f', text }).documents[0];
  if (!full) throw new Error(`yaml found no document in ${text}`);
  for (const [key, value] of Object.entries(plain.data)) {
    const paths: (string | number)[][] = [[key], ...(Array.isArray(value) ? value.map((_, index) => [key, index]) : [])];
    for (const path of paths) {
      expect(plain.positions?.has(path.join('\u0000')), `${text}: ${path.join('.')} recorded`).toBe(true);
      for (const part of ['key', 'value'] as const) {
        expect(locate(plain, path, part), `${text}: ${path.join('.')} ${part}`).toEqual(locate(full, path, part));
      }
    }
  }
}

const word = fc.constantFrom('a', 'acme.com', 'team-1', 'Team', 'cmp_3', 'x.co.uk', 'a.-b', 'null', 'NULL', 'True', 'false', 'yes', 'y', 'n', 'on', 'Off');
const sharp = fc.constantFrom(
  '', ' ', '12', '1e3', '0x1f', '0o7', '.inf', '-.Inf', '.nan', '~', '-a', 'a:b', 'a: b', 'a #c', 'a#c', "'a'", '"a"', '[]', '[ ]',
  '[a, b]', '[a,b]', '[ a ]', '[a, [b]]', '{}', '{a: b}', '&x a', '*x', '!!str a', '!tag a', '? a', '| a', '> a', '@a', '%a', '`a', 'a  b',
  'a ', 'a\t', '\ta', 'ä.com', '\u200e', 'a\r', 'a,b', '--- a', '... a',
);
const quoted = fc.constantFrom('"a.com"', "'Team 1'", '"a #b"', "'x \"y\"'", '""', "''", '"true"', "'12'", '"a\\b"', '"a\\"b"', "'it''s'", '"a', "'a", '"a"b', '"a"#c');
const comment = fc.constantFrom(' # c', '  #', ' #: x', '#c', '', '', '', '   ');
/** Mostly plain words (the subset), sometimes quoted or a sharp edge, alone or glued to words; now and then a comment after. */
const scalar = fc
  .tuple(
    fc.oneof(
      { weight: 8, arbitrary: fc.array(word, { minLength: 1, maxLength: 3 }).map((words) => words.join(' ')) },
      { weight: 2, arbitrary: quoted },
      { weight: 1, arbitrary: sharp },
      { weight: 1, arbitrary: fc.tuple(word, sharp, word).map((parts) => parts.join('')) },
    ),
    comment,
  )
  .map(([value, after]) => value + after);
const separator = fc.oneof({ weight: 12, arbitrary: fc.constant(': ') }, { weight: 1, arbitrary: fc.constantFrom(':', ':  ', ' : ', ':\t', ':#') });
const indent = fc.oneof({ weight: 4, arbitrary: fc.constantFrom('', '  ') }, { weight: 1, arbitrary: fc.constantFrom(' ', '    ', '\t') });
const scalarKey = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom('scope', 'scopeType', 'scopeName', 'componentId') },
  { weight: 1, arbitrary: fc.constantFrom('domains', 'metadata', 'Scope', 'true', 'scope ', ' scope') },
);
const commentLine = fc.tuple(indent, fc.constantFrom('# c', '#', '#: x', '# - y')).map(([i, c]) => `${i}${c}`);
const stray = fc.oneof(commentLine, fc.constantFrom('', '   ', '---', '...', '%YAML 1.1', '  owner: eng', 'a: &x b'), fc.tuple(indent, scalar).map(([i, v]) => i + v));
const dash = fc.oneof({ weight: 6, arbitrary: fc.constant('- ') }, { weight: 1, arbitrary: fc.constantFrom('-', '-- ', '- - ', '-\t', '-   ', '-#') });
/** `domains` as a block list (items at one indentation, now and then another), a flow list, or bare. */
const domains = fc.oneof(
  fc
    .tuple(indent, fc.array(fc.tuple(scalar, fc.option(indent, { freq: 10 }), fc.option(commentLine, { freq: 8 }), dash), { maxLength: 4 }))
    .map(([first, items]) => ['domains:', ...items.flatMap(([value, other, note, d]) => [...(note === null ? [] : [note]), `${other ?? first}${d}${value}`])]),
  fc.tuple(fc.array(scalar, { maxLength: 3 }), comment).map(([items, after]) => [`domains: [${items.join(', ')}]${after}`]),
  fc.constantFrom(['domains:'], ['domains: []'], ['domains: [] # clear'], ['domains: # c', '  - a.com'], ['domains:  ', '  - a.com']),
);
const entry = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(scalarKey, separator, scalar).map(([k, sep, v]) => [`${k}${sep}${v}`]) },
  { weight: 3, arbitrary: domains },
  { weight: 1, arbitrary: stray.map((text) => [text]) },
);
const document = fc
  .tuple(fc.array(entry, { maxLength: 7 }), fc.constantFrom('\n', '\n', '', '\r\n'))
  .map(([entries, end]) => entries.flat().join(end === '' ? '\n' : end) + end);

/** A file the fast path must accept: the shapes policy files are written in. */
function typical(n: number, list: 'block' | 'flow' | 'compact'): string {
  const domains = [`company-${n}.com`, `company-${n}.co.uk`];
  const body =
    list === 'flow'
      ? `domains: [${domains.join(', ')}]\n`
      : `domains:\n${domains.map((d) => `${list === 'block' ? '  ' : ''}- ${d}`).join('\n')}\n`;
  return `# yaml-language-server: $schema=../schemas/autojoin.schema.json\n\nscope: team-${n}\nscopeType: team\nscopeName: Team ${n}\ncomponentId: cmp_${n}\n${body}`;
}

describe('the plain-YAML fast path', () => {
  it('agrees with the yaml library on every text it accepts', () => {
    let accepted = 0;
    fc.assert(
      fc.property(document, (text) => {
        if (expectAgreement(text)) accepted += 1;
      }),
      { numRuns: 5000 },
    );
    // The generator must reach the accepted subset often enough for the property to mean something.
    expect(accepted).toBeGreaterThan(30);
  });

  it('agrees on the edge cases of the subset', () => {
    for (const text of [
      'scope: a\n  # a comment, not a continuation\ncomponentId: c\ndomains: []\n',
      'domains:\n- a.com\n# between\n- b.com\nscope: s\n',
      'domains:\n  # before the first item\n    - a.com\n    - b.com',
      'scope: a b c\ndomains: [a.com]\n',
      'scope: "a #b"  # c\nscopeName: \'x "y"\'\ndomains: # c\n  -   a.com # x\n  - "b.com"\n',
      'domains: [a, b] # c\nscope: s   \n',
    ]) {
      expect(expectAgreement(text), text).toBe(true);
    }
  });

  it('takes the shapes policy files are written in', () => {
    for (const list of ['block', 'flow', 'compact'] as const) expect(expectAgreement(typical(7, list)), list).toBe(true);
  });

  it('leaves everything else to the yaml library', () => {
    for (const text of [
      'scope: a\n  continued\ncomponentId: c\ndomains: []\n', // a multi-line plain scalar
      'scope: a\nscope: b\ndomains: []\n', // a duplicate key
      'scope: a\ndomains:\n  - a.com\n    - b.com\n', // items at two indentations
      'scope: a\ndomains:\n\t- a.com\n', // a tab
      'scope: "a\\"b"\ndomains: []\n', // an escape
      "scope: 'it''s'\ndomains: []\n", // a quote in quotes
      'scope: a#b\ndomains: []\n', // # inside a plain scalar
      'scope: true\ndomains: []\n', // a boolean
      'scope: a\ndomains:\n  - 1password.com\n', // a value that starts with a digit
      'scope: a\nmetadata:\n  owner: eng\ndomains: []\n', // a mapping
      'scope: a\n---\nscope: b\n', // two documents
      'scope: a\r\ndomains: []\r\n', // CR LF
      'scope: a\ndomains:\n', // a key without value
      'scope: a\ndomains:\n  -- a.com\n', // a scalar, not an item
      '# only a comment\n',
    ]) {
      expect(parsePlainDocument({ file: 'f', text }), text).toBeNull();
    }
  });

  it('reports a fast-path file with positions from the full parse', () => {
    const text = `${typical(1, 'block')}  - gmail.com\n  - company-1.com\n`;
    expect(parsePlainDocument({ file: 'a.autojoin.yaml', text })).not.toBeNull();
    const result = parsePolicySources([{ file: 'a.autojoin.yaml', text }]);
    expect(result.diagnostics.map((d) => `${d.line}:${d.column} ${d.code}`)).toEqual(['8:5 duplicate-domain', '10:5 webmail-domain', '11:5 duplicate-domain']);
    expect(result.policies).toEqual([]);
  });
});
