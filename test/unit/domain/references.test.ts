import assert from 'node:assert/strict';
import { findReferences, mentions } from '../../../src/domain/references';

const refs = (text: string) =>
  findReferences(text).map(({ kind, iid, start, end }) => [kind, iid, text.slice(start, end)]);

describe('findReferences (#12 and !3 in Markdown text)', () => {
  it('finds issues and merge requests where GitLab links them', () => {
    assert.deepEqual(refs('Fixes #12, see !3.'), [
      ['issue', 12, '#12'],
      ['mergeRequest', 3, '!3'],
    ]);
    assert.deepEqual(refs('#1 at the start'), [['issue', 1, '#1']]);
    assert.deepEqual(refs('(#7) [#8] "!9"'), [
      ['issue', 7, '#7'],
      ['issue', 8, '#8'],
      ['mergeRequest', 9, '!9'],
    ]);
    assert.deepEqual(refs('line\n#4\ttab !5'), [
      ['issue', 4, '#4'],
      ['mergeRequest', 5, '!5'],
    ]);
  });

  it('leaves what only looks like one', () => {
    for (const text of [
      'abc#12',
      'a!3',
      'group/project#12',
      '&#39;',
      '##12',
      '!!3',
      '#12abc',
      '#1_2',
      '#0',
      '#',
      '! 3',
      '#1234567890',
      'color #ff0000',
      'Hello!2',
    ])
      assert.deepEqual(refs(text), [], text);
  });
});

describe('mentions (the host opens only what the page shows)', () => {
  it('is true only for a reference of that kind and number in one of the texts', () => {
    const texts = ['Fixes #12', null, undefined, 'see !3 and `#4`'];
    assert.equal(mentions(texts, 'issue', 12), true);
    assert.equal(mentions(texts, 'mergeRequest', 3), true);
    assert.equal(mentions(texts, 'mergeRequest', 12), false);
    assert.equal(mentions(texts, 'issue', 3), false);
    assert.equal(mentions(texts, 'issue', 1), false);
    assert.equal(mentions([], 'issue', 12), false);
  });
});
