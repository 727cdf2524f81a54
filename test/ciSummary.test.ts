// The CI's last line ("N passed, M failed") counts each failed test once, and a file that did not load.
import {describe, expect, it} from "vitest";
// @ts-expect-error: a plain .mjs script without types
import {summarize} from "../scripts/ci/summarize-vitest.mjs";

const file = (status: string, assertions: string[]) => ({
  status,
  assertionResults: assertions.map((s) => ({status: s})),
});

describe("the CI summary", () => {
  it("counts a failed test inside a describe block once", () => {
    // vitest counts the file and the describe block around it as failed suites too.
    const report = {
      numPassedTests: 9,
      numFailedTests: 1,
      numFailedTestSuites: 2,
      testResults: [file("failed", ["passed", "failed"]), file("passed", ["passed"])],
    };
    expect(summarize(report)).toEqual({passed: 9, failed: 1});
  });

  it("counts a file that did not load as a failure", () => {
    const report = {numPassedTests: 3, numFailedTests: 0, numFailedTestSuites: 1, testResults: [file("failed", [])]};
    expect(summarize(report)).toEqual({passed: 3, failed: 1});
  });
});
