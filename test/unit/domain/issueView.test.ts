import assert from 'node:assert/strict';
import {
  issueAppearance,
  issuePanelKey,
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

describe('issue view, at its edges', () => {
  it('gives each state its whole look', () => {
    assert.deepEqual(issueAppearance({ state: 'closed' }), {
      codicon: 'issue-closed',
      color: 'charts.purple',
      label: 'closed',
    });
    assert.deepEqual(issueAppearance({ state: 'opened' }), {
      codicon: 'issues',
      color: 'charts.green',
      label: 'opened',
    });
    assert.deepEqual(issueAppearance({ state: 'opened', confidential: true }), {
      codicon: 'lock',
      color: 'charts.green',
      label: 'opened, confidential',
    });
  });

  it('takes a colour only when the whole string is one, short forms read as long ones', () => {
    for (const hostile of ['x#fff', ' #fff', '#fff ', '#ffff', '#fffffff'])
      assert.equal(safeLabelColor(hostile), undefined, hostile);
    // #0f0 is #00ff00, a light green: black text.
    assert.equal(labelTextColor('#0f0'), '#000000');
    assert.equal(labelTextColor('#00ff00'), '#000000');
    assert.equal(labelTextColor('#00f'), '#ffffff');
    // Dark channels (below the linear part's threshold) still count.
    assert.equal(labelTextColor('#0a0a0a'), '#ffffff');
    assert.equal(labelTextColor('#777777'), '#000000');
  });

  it('keys a panel by account, project and issue, and keeps a title of 60 characters whole', () => {
    assert.equal(issuePanelKey('a1', 7, 12), 'issue|a1|7|12');
    const sixty = 'y'.repeat(60);
    assert.equal(issuePanelTitle({ iid: 1, title: sixty }), `#1 ${sixty}`);
    assert.equal(issuePanelTitle({ iid: 1, title: `${sixty}z` }), `#1 ${'y'.repeat(59)}…`);
  });

  it('names every entry it leaves out, by place and name', () => {
    const { queries, problems } = readIssueQueries([
      { name: '  Trimmed  ', project: 42 },
      null,
      ['an array'],
      { name: '   ' },
      { name: 'x'.repeat(101) },
      { name: 'Zero', project: 0 },
      { name: 'Half', project: 1.5 },
      { name: 'Blank project', project: ' ' },
      { name: 'Bad state', state: 'merged' },
      { name: 'Empty label', labels: ['bug', ''] },
    ]);
    assert.deepEqual(queries, [{ name: 'Trimmed', project: 42, scope: 'all', state: 'opened', labels: [] }]);
    assert.deepEqual(problems, [
      'entry 2: not an object',
      'entry 3: not an object',
      'entry 4: "name" is missing',
      'entry 5: "name" is missing',
      '"Zero": "project" is not a project id or path',
      '"Half": "project" is not a project id or path',
      '"Blank project": "project" is not a project id or path',
      '"Bad state": "state" must be one of opened, closed, all',
      '"Empty label": "labels" must be a list of names',
    ]);
    assert.deepEqual(readIssueQueries(null), { queries: [], problems: [] });
    const twenty = Array.from({ length: 20 }, (_, index) => ({ name: `Q${index}` }));
    assert.deepEqual(readIssueQueries(twenty).problems, []);
    const more = readIssueQueries([...twenty, { name: 'Q20' }]);
    assert.equal(more.queries.length, 20);
    assert.deepEqual(more.problems, ['only the first 20 entries are used']);
    assert.deepEqual(readIssueQueries([{ name: 'S', scope: 'x' }]).problems, [
      '"S": "scope" must be one of assigned_to_me, created_by_me, all',
    ]);
  });
});
