// Prints "N passed, M failed" from vitest's JSON report; exits non-zero when a test failed,
// a suite failed to load, or no test ran at all.
import {existsSync, readFileSync} from "node:fs";

const file = process.argv[2] ?? ".vitest-results.json";
if (!existsSync(file)) {
  console.log("0 passed, 1 failed");
  console.error(`no vitest JSON report at ${file}`);
  process.exit(1);
}
const report = JSON.parse(readFileSync(file, "utf8"));
const passed = report.numPassedTests ?? 0;
// A test file that fails to load has no failed test in it; count it as a failure.
const failed = (report.numFailedTests ?? 0) + (report.numFailedTestSuites ?? 0) - countSuitesWithFailedTests(report);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);

function countSuitesWithFailedTests(r) {
  return (r.testResults ?? []).filter((s) => (s.assertionResults ?? []).some((a) => a.status === "failed")).length;
}
