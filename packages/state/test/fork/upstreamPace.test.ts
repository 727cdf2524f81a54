/** The fork's pace of requests by upstream (docs/forking.md §1.3): none on loopback unless set, 100 a second elsewhere. */
import {describe, expect, it} from "vitest";
import {REMOTE_UPSTREAM_REQUESTS_PER_SECOND, UpstreamClient, upstreamPace} from "../../src/fork/upstreamClient.ts";

describe("upstreamPace", () => {
  it("does not pace an upstream on loopback unless fork.requestsPerSecond is set", () => {
    for (const url of [
      "http://127.0.0.1:4444",
      "http://localhost:8545/rpc",
      "https://[::1]:8545",
      "http://127.8.0.1",
    ]) {
      expect(upstreamPace(url, undefined), url).toBe(0);
      expect(upstreamPace(url, 20), url).toBe(20);
    }
  });

  it("paces any other upstream at 100 calls a second unless set, 0 being no limit", () => {
    expect(REMOTE_UPSTREAM_REQUESTS_PER_SECOND).toBe(100);
    for (const url of ["https://public-node.rsk.co", "http://10.0.0.5:4444", "http://0.0.0.0:4444", "not a url"]) {
      expect(upstreamPace(url, undefined), url).toBe(100);
      expect(upstreamPace(url, 0), url).toBe(0);
    }
  });

  it("is the client's pace", () => {
    const options = {requestsPerSecond: undefined, batchSize: 50, retries: 0, timeoutMs: 1000};
    expect(new UpstreamClient("http://127.0.0.1:1", options).pace).toBe(0);
    expect(new UpstreamClient("http://127.0.0.1:1", {...options, requestsPerSecond: 5}).pace).toBe(5);
    expect(new UpstreamClient("https://node.example", options).pace).toBe(100);
  });
});
