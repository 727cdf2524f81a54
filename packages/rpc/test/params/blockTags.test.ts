/**
 * The block tags `safe` and `finalized` (docs/rpc.md §4.3): accepted wherever a tag is, and resolved
 * to the head minus `rpc.safeDepth` / `rpc.finalizedDepth` confirmations, genesis on a shorter chain.
 */
import {describe, expect, it} from "vitest";
import {defaultRpcOptions} from "../../src/options.ts";
import {blockNumberOrTag, blockRef, heightAt, isHeadTag} from "../../src/params/blockRef.ts";
import {traceBlockRef} from "../../src/params/traceFilter.ts";

const depths = {safeDepth: 12, finalizedDepth: 4000};

describe("safe and finalized tags", () => {
  it("are parsed by every block parameter codec", () => {
    for (const tag of ["safe", "finalized"] as const) {
      expect(blockNumberOrTag(tag, "block")).toEqual({kind: "tag", tag});
      expect(blockRef(tag, "block")).toEqual({kind: "tag", tag});
      expect(blockRef({blockNumber: tag}, "block")).toEqual({kind: "tag", tag});
      expect(traceBlockRef(tag.toUpperCase(), "block")).toEqual({kind: "tag", tag});
    }
    expect(() => blockNumberOrTag("Safe", "block")).toThrow('block: invalid block identifier "Safe"');
  });

  it("are described in rpc.discover's schema of a block parameter", () => {
    expect(JSON.stringify(blockNumberOrTag.schema)).toContain(
      '"enum":["latest","earliest","pending","safe","finalized"]',
    );
    expect(JSON.stringify(blockRef.schema)).toContain('"safe","finalized"');
  });

  it("resolve to the head minus their depth", () => {
    expect(heightAt(10_000, {kind: "tag", tag: "safe"}, depths)).toBe(9_988);
    expect(heightAt(10_000, {kind: "tag", tag: "finalized"}, depths)).toBe(6_000);
    expect(heightAt(10_000, {kind: "tag", tag: "latest"}, depths)).toBe(10_000);
    expect(heightAt(10_000, {kind: "tag", tag: "earliest"}, depths)).toBe(0);
    expect(heightAt(10_000, {kind: "number", number: 5}, depths)).toBe(5);
  });

  it("are genesis while the chain is shorter than their depth, and the head at depth 0", () => {
    expect(heightAt(11, {kind: "tag", tag: "safe"}, depths)).toBe(0);
    expect(heightAt(12, {kind: "tag", tag: "safe"}, depths)).toBe(0);
    expect(heightAt(13, {kind: "tag", tag: "safe"}, depths)).toBe(1);
    expect(heightAt(3_999, {kind: "tag", tag: "finalized"}, depths)).toBe(0);
    expect(heightAt(0, {kind: "tag", tag: "safe"}, depths)).toBe(0);
    expect(heightAt(7, {kind: "tag", tag: "safe"}, {safeDepth: 0, finalizedDepth: 0})).toBe(7);
  });

  it("do not read as the head, unlike latest and pending", () => {
    expect(isHeadTag({kind: "tag", tag: "safe"})).toBe(false);
    expect(isHeadTag({kind: "tag", tag: "finalized"})).toBe(false);
    expect(isHeadTag({kind: "tag", tag: "latest"})).toBe(true);
    expect(isHeadTag({kind: "tag", tag: "pending"})).toBe(true);
  });

  it("default to 12 and 4,000 confirmations", () => {
    expect(defaultRpcOptions.safeDepth).toBe(12);
    expect(defaultRpcOptions.finalizedDepth).toBe(4_000);
  });
});
