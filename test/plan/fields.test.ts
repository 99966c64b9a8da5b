/** Names and metadata are policy where the file states them and the service shows them. */
import { describe, expect, it } from 'vitest';
import { fingerprint } from '../../src/plan/live-fingerprint.js';
import { buildPlan, diffChanges as diff } from '../support/plan.js';
import { parsePlan } from '../../src/plan/saved.js';
import { serializePlan } from '../../src/plan/encode.js';
import { renderMarkdown } from '../../src/render/markdown.js';
import { renderText } from '../../src/render/plan-text.js';
import type { LiveScope } from '../../src/service/types.js';
import { live, liveMap, NOW, policy, TARGET } from './fixtures.js';

/** A live scope showing a name and metadata; object metadata carries this repository's ownership marker. */
const shown = (scopeName: string | null | undefined, metadata?: unknown): LiveScope => {
  const scope: LiveScope = { ...live('team/a', ['a.com']) };
  if (scopeName !== undefined) scope.scopeName = scopeName;
  const marked = typeof metadata === 'object' && metadata !== null ? { ...metadata, 'autojoin-sync.owner': 'default' } : metadata;
  if (metadata !== undefined) scope.metadata = marked;
  return scope;
};
const MARK_IT = { field: 'owner', before: null, after: 'default' };

describe('scopeName and metadata in the diff', () => {
  it.each([
    ['a different name', { scopeName: 'New' }, shown('Old'), [{ field: 'scopeName', before: 'Old', after: 'New' }]],
    ['a name where the service shows none', { scopeName: 'New' }, shown(null), [{ field: 'scopeName', before: null, after: 'New' }]],
    ['different metadata', { metadata: { a: 1 } }, shown('x', { a: 2 }), [{ field: 'metadata', before: { a: 2 }, after: { a: 1 } }]],
    ['metadata where the service has null', { metadata: { a: 1 } }, shown('x', null), [{ field: 'metadata', before: null, after: { a: 1 } }, MARK_IT]],
    ['metadata without a marker (marked by the write)', { metadata: { a: 1 } }, { ...shown('x'), metadata: { a: 1 } }, [MARK_IT]],
    ['another owner\'s marker', {}, { ...shown('x'), metadata: { 'autojoin-sync.owner': 'infra' } }, [{ field: 'owner', before: 'infra', after: 'default' }]],
  ])('%s is an update of fields only', (_name, extra, liveScope, fields) => {
    const [change] = diff([policy('team/a', ['a.com'], extra)], liveMap(liveScope));
    expect(change).toMatchObject({ kind: 'update', added: [], removed: [], unchanged: 1, fieldChanges: fields });
  });

  it.each([
    ['the file leaves the name out', {}, shown('Old')],
    ['the service shows no groups (name unknown)', { scopeName: 'New' }, shown(undefined)],
    ['the same name', { scopeName: 'Old' }, shown('Old')],
    ['metadata equal but for key order', { metadata: { a: 1, b: { c: [1], d: 2 } } }, shown('x', { b: { d: 2, c: [1] }, a: 1 })],
    ['metadata {} and only the marker on the service', { metadata: {} }, shown('x', {})],
    ['live keys besides the marker and the file leaves metadata out', {}, shown('x', { team: 'x' })],
    ['the service shows no metadata field', { metadata: { a: 1 } }, shown('x')],
  ])('no change when %s', (_name, extra, liveScope) => {
    expect(diff([policy('team/a', ['a.com'], extra)], liveMap(liveScope))).toEqual([]);
  });

  it('a domain update carries the field changes too, and the metadata to send', () => {
    const [change] = diff([policy('team/a', ['b.com'], { scopeName: 'New', metadata: { a: 1 } })], liveMap(shown('Old', { a: 1 })));
    expect(change).toMatchObject({ kind: 'update', added: ['b.com'], metadata: { a: 1 }, fieldChanges: [{ field: 'scopeName' }] });
  });

  it('the fingerprint moves with the name and metadata the service shows, and not without them', () => {
    expect(fingerprint(shown('Old'))).not.toBe(fingerprint(shown('New')));
    expect(fingerprint(shown('x', { a: 1 }))).not.toBe(fingerprint(shown('x', { a: 2 })));
    expect(fingerprint(shown('x', { a: 1, b: 2 }))).toBe(fingerprint(shown('x', { b: 2, a: 1 })));
    expect(fingerprint(shown(undefined))).toBe(fingerprint(live('team/a', ['a.com'])));
  });
});

describe('field changes in every renderer', () => {
  const plan = buildPlan({
    desired: [policy('team/a', ['a.com'], { scopeName: 'New <b>', metadata: { owner: 'eng' } })],
    live: liveMap(shown('Old\u001b[31m', null)),
    target: TARGET,
    now: NOW,
  });

  it('text shows old → new, escaping control characters', () => {
    expect(renderText(plan, { color: false })).toBe(
      [
        '~ team/a (New <b>)  update: +0 -0, 1 unchanged; scopeName, metadata and owner change',
        '    ~ scopeName: "Old\\u001b[31m" → "New <b>"',
        '    ~ metadata: null → {"owner":"eng"}',
        '    ~ owner: none → "default" (marks the scope as managed here)',
        '',
        '0 to create, 1 to update, 0 to clear, 0 unchanged.',
        '',
      ].join('\n'),
    );
  });

  it('markdown lists them, escaped', () => {
    const markdown = renderMarkdown(plan);
    expect(markdown).toContain('- scopeName: &#34;Old&#92;u001b&#91;31m&#34; → &#34;New &#60;b&#62;&#34;\n- metadata: null → {&#34;owner&#34;:&#34;eng&#34;}\n');
  });

  it('the plan JSON (formatVersion 3) carries them and reads back', () => {
    const text = serializePlan(plan);
    expect(JSON.parse(text)).toMatchObject({
      formatVersion: 5,
      owner: 'default',
      changes: [
        {
          metadata: { owner: 'eng' },
          fieldChanges: [
            { field: 'scopeName', before: 'Old\u001b[31m', after: 'New <b>' },
            { field: 'metadata', before: null, after: { owner: 'eng' } },
            { field: 'owner', before: null, after: 'default' },
          ],
        },
      ],
    });
    expect(serializePlan(parsePlan(text))).toBe(text);
  });
});
