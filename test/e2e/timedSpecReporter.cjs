// The UI tests' reporter: mocha's spec output, plus each file's suite time with its hooks (starting
// a VS Code window, resetting the shared one), which the per-test times leave out. "Where the time
// goes" in docs/testing.md is read from these lines.
'use strict';
const Mocha = require('mocha');

const { EVENT_SUITE_BEGIN, EVENT_SUITE_END, EVENT_RUN_END } = Mocha.Runner.constants;

class TimedSpecReporter extends Mocha.reporters.Spec {
  /** @param {Mocha.Runner} runner @param {Mocha.MochaOptions} options */
  constructor(runner, options) {
    super(runner, options);
    /** @type {Map<Mocha.Suite, number>} */
    const started = new Map();
    /** @type {[string, number][]} */
    const times = [];
    runner.on(EVENT_SUITE_BEGIN, (suite) => {
      if (suite.parent?.root) started.set(suite, Date.now());
    });
    runner.on(EVENT_SUITE_END, (suite) => {
      const at = started.get(suite);
      if (at === undefined) return;
      const seconds = (Date.now() - at) / 1000;
      times.push([suite.title, seconds]);
      Mocha.reporters.Base.consoleLog(`    (suite with its hooks: ${seconds.toFixed(1)} s)`);
    });
    runner.once(EVENT_RUN_END, () => {
      Mocha.reporters.Base.consoleLog('\n  Suites by time, with their hooks:');
      for (const [title, seconds] of times.sort((a, b) => b[1] - a[1])) {
        Mocha.reporters.Base.consoleLog(`  ${seconds.toFixed(1).padStart(7)} s  ${title}`);
      }
    });
  }
}

module.exports = TimedSpecReporter;
