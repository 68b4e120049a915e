import assert from 'node:assert/strict';
import {
  issueAppearance,
  issuePanelTitle,
  labelTextColor,
  readIssueQueries,
  safeLabelColor,
} from '../../../src/domain/issueView';

describe('issue view', () => {
  it('shows opened, confidential and closed issues apart', () => {
    assert.equal(issueAppearance({ state: 'opened' }).codicon, 'issues');
    assert.equal(issueAppearance({ state: 'opened', confidential: true }).codicon, 'lock');
    assert.equal(issueAppearance({ state: 'closed', confidential: true }).codicon, 'issue-closed');
  });

  it('takes a label colour from the server only when it is a plain hex colour', () => {
    assert.equal(safeLabelColor('#D9534F'), '#D9534F');
    assert.equal(safeLabelColor('#fff'), '#fff');
    for (const hostile of ['red', '#fff;background:url(x)', 'url(https://evil/)', '#12345', 42, null])
      assert.equal(safeLabelColor(hostile), undefined, String(hostile));
    assert.equal(labelTextColor('#ffffff'), '#000000');
    assert.equal(labelTextColor('#000'), '#ffffff');
    assert.equal(labelTextColor('#D9534F'), '#000000');
    assert.equal(labelTextColor('#6699cc'), '#000000');
    assert.equal(labelTextColor('#330066'), '#ffffff');
  });

  it('cuts a long title for the panel tab', () => {
    assert.equal(issuePanelTitle({ iid: 4, title: 'Short' }), '#4 Short');
    assert.equal(issuePanelTitle({ iid: 4, title: 'x'.repeat(100) }).length, '#4 '.length + 60);
  });

  it("reads the user's queries from the settings and names each entry left out", () => {
    const { queries, problems } = readIssueQueries([
      { name: 'My bugs', labels: ['bug'] },
      { name: 'Web backlog', project: 'acme/web', state: 'all', milestone: 'v1', search: 'crash' },
      { name: 'Bad scope', scope: 'everyone' },
      { labels: ['no name'] },
      { name: 'Bad labels', labels: 'bug' },
      'not an object',
    ]);
    assert.deepEqual(queries, [
      { name: 'My bugs', scope: 'assigned_to_me', state: 'opened', labels: ['bug'] },
      {
        name: 'Web backlog',
        project: 'acme/web',
        scope: 'all',
        state: 'all',
        labels: [],
        milestone: 'v1',
        search: 'crash',
      },
    ]);
    assert.equal(problems.length, 4);
    assert.match(problems[0] ?? '', /Bad scope.*scope/);
    assert.deepEqual(readIssueQueries(undefined), { queries: [], problems: [] });
    assert.deepEqual(readIssueQueries({}).problems, ['the setting is not a list']);
  });
});
