import assert from 'node:assert/strict';
import { safeMarkdown } from '../../../src/domain/safeMarkdown';
import { suggestionFence, type SuggestionFacts } from '../../../src/domain/suggestions';

/** A note as the review shows it: safe Markdown with its suggestion blocks as diffs. */
function renderSuggestions(body: string, suggestions: readonly SuggestionFacts[]): string {
  return safeMarkdown(body, { fence: suggestionFence(suggestions) });
}

const suggestion = {
  id: 7,
  from_line: 6,
  to_line: 6,
  appliable: true,
  applied: false,
  from_content: 'createServer((request, response) => {\n',
  to_content: 'createServer((req, res) => {\n',
};

describe('suggestionFence', () => {
  it('shows a suggestion block as the change it proposes, lines removed and added', () => {
    const body = 'Shorter:\n\n```suggestion:-0+0\ncreateServer((req, res) => {\n```\n\nThanks';
    assert.equal(
      renderSuggestions(body, [suggestion]),
      'Shorter\\:\n\n**Suggested change** (line 6):\n\n```diff\n-createServer((request, response) => {\n+createServer((req, res) => {\n```\n\nThanks',
    );
  });

  it('names a range of lines and says when the suggestion was applied', () => {
    const body = '```suggestion:-1+0\na\nb\n```';
    const rendered = renderSuggestions(body, [
      {
        ...suggestion,
        from_line: 5,
        to_line: 6,
        from_content: 'x\ny\n',
        to_content: 'a\nb\n',
        applied: true,
      },
    ]);
    assert.match(rendered, /^\*\*Suggested change\*\* \(lines 5–6, applied\):/);
    assert.match(rendered, /-x\n-y\n\+a\n\+b\n/);
  });

  it('keeps server text inside its code block, whatever fences it holds', () => {
    const hostile = { ...suggestion, to_content: '```\n[run](command:workbench.action.quit)\n```\n' };
    const rendered = renderSuggestions('```suggestion\nx\n```', [hostile]);
    const fence = /^(`{4,})diff$/m.exec(rendered)?.[1];
    assert.ok(fence, 'a fence longer than any run of backticks in the text');
    assert.ok(rendered.trimEnd().endsWith(fence));
  });

  it('fences server text of 200,000 backtick runs (a spread into Math.max overflowed the stack)', () => {
    const hostile = { ...suggestion, from_content: '`a'.repeat(200_000) };
    const rendered = renderSuggestions('```suggestion\nx\n```', [hostile]);
    assert.match(rendered, /^(`{3})diff$/m, 'runs of one backtick need the shortest fence');
  });

  it('leaves a body without suggestions, or without their data, as it is', () => {
    assert.equal(renderSuggestions('Plain **text**', []), 'Plain **text**');
    assert.equal(renderSuggestions('```js\nx\n```', [suggestion]), '```js\nx\n```');
    assert.equal(renderSuggestions('```suggestion\nx\n```', []), '```suggestion\nx\n```');
  });

  it('knows a suggestion block only by its exact info string, and takes the suggestions in order', () => {
    const first = { ...suggestion, from_content: 'one\n', to_content: 'ONE\n' };
    const second = { ...suggestion, from_line: 9, to_line: 9, from_content: 'two\n', to_content: '' };
    const body = [
      '```suggestion:-12+34',
      'x',
      '```',
      '',
      '```suggestionx',
      'y',
      '```',
      '',
      '```xsuggestion',
      'z',
      '```',
      '',
      '```suggestion:-1',
      'w',
      '```',
      '',
      '``` suggestion ',
      'v',
      '```',
    ].join('\n');
    const rendered = renderSuggestions(body, [first, second]);
    assert.match(
      rendered,
      /\(line 6\):\n\n```diff\n-one\n\+ONE\n```/,
      'the first block, the first suggestion',
    );
    // Removing the line: nothing added, and no empty `+` line.
    assert.match(rendered, /\(line 9\):\n\n```diff\n-two\n```/, 'the second block, the second suggestion');
    assert.equal(rendered.split('**Suggested change**').length - 1, 2, 'two blocks shown as changes');
    // The info string is trimmed, as CommonMark does: ` suggestion ` is the second block.
    assert.ok(!rendered.includes('\nv\n'));
    for (const kept of ['y', 'z', 'w'])
      assert.ok(rendered.includes(`\n${kept}\n${'`'.repeat(3)}`), `${kept} stays code`);
  });

  it('shows an addition with nothing removed, its last line kept when it has no newline', () => {
    const added = { ...suggestion, from_content: '', to_content: 'a\nb' };
    assert.match(renderSuggestions('```suggestion\nx\n```', [added]), /```diff\n\+a\n\+b\n```/);
  });
});
