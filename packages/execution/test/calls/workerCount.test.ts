import {describe, expect, it} from "vitest";
import {callWorkerCount} from "../../src/calls/workerCount.ts";

describe("callWorkerCount", () => {
  it("takes the configured count, else cores - 1 up to 4 (none on one core)", () => {
    expect(callWorkerCount(3, 2)).toBe(3);
    expect(callWorkerCount(0, 16)).toBe(0);
    expect(callWorkerCount(undefined, 1)).toBe(0);
    expect(callWorkerCount(undefined, 2)).toBe(1);
    expect(callWorkerCount(undefined, 3)).toBe(2);
    expect(callWorkerCount(undefined, 16)).toBe(4);
  });
});
