// @ts-check
// Test-only extension: when FORGE_HOST_TESTS (path to out/host/index.js) and FORGE_HOST_RESULTS (path of
// the JSON report) are both set in the environment of the VS Code process, it runs the host suites and
// writes their report. Without both variables it does nothing at all.
'use strict';
const { writeFileSync } = require('node:fs');

/** @param {unknown} error */
function describe(error) {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/** @param {string} resultsFile @param {unknown} error */
function reportCrash(resultsFile, error) {
  const report = {
    passes: 0,
    failures: 1,
    pending: 0,
    durationMs: 0,
    tests: [
      { fullTitle: 'host test runner extension', state: 'failed', durationMs: 0, error: describe(error) },
    ],
  };
  writeFileSync(resultsFile, JSON.stringify(report, null, 2));
}

function activate() {
  const entry = process.env.FORGE_HOST_TESTS;
  const resultsFile = process.env.FORGE_HOST_RESULTS;
  if (!entry || !resultsFile) return;
  // Run after activation returns, so VS Code finishes starting this extension first.
  setTimeout(() => {
    try {
      const index = /** @type {{ runAndReport(file: string): Promise<void> }} */ (require(entry));
      index
        .runAndReport(resultsFile)
        .catch((/** @type {unknown} */ error) => reportCrash(resultsFile, error));
    } catch (error) {
      reportCrash(resultsFile, error);
    }
  }, 0);
}

function deactivate() {}

module.exports = { activate, deactivate };
