// Prints "N passed, M failed" from vitest's JSON report; exits non-zero when a test failed,
// a suite failed to load, or no test ran at all.
import {existsSync, readFileSync} from "node:fs";
import {fileURLToPath} from "node:url";

/**
 * Passed and failed counts of a vitest JSON report. A failed test counts once: the report's
 * `numFailedTestSuites` also counts each file and describe block around a failed test, so only a
 * file that failed without a failed test in it (it did not load) is added.
 */
export function summarize(report) {
  const unloaded = (report.testResults ?? []).filter(
    (file) => file.status === "failed" && !(file.assertionResults ?? []).some((a) => a.status === "failed"),
  ).length;
  return {passed: report.numPassedTests ?? 0, failed: (report.numFailedTests ?? 0) + unloaded};
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = process.argv[2] ?? ".vitest-results.json";
  if (!existsSync(file)) {
    console.log("0 passed, 1 failed");
    console.error(`no vitest JSON report at ${file}`);
    process.exit(1);
  }
  const {passed, failed} = summarize(JSON.parse(readFileSync(file, "utf8")));
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed > 0 || passed === 0 ? 1 : 0);
}
