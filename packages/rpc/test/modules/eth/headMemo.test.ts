/** Head reads answered once per head state root (docs/rpc.md §4.3). */
import {describe, expect, it} from "vitest";
import type {RequestContext} from "../../../src/jsonrpc/registry.ts";
import {HeadMemo, memoAtHead} from "../../../src/modules/eth/headMemo.ts";
import {blockRef, LATEST} from "../../../src/params/blockRef.ts";
import {address} from "../../../src/params/hex.ts";
import {method, optional, param} from "../../../src/params/method.ts";

/** A chain whose head's effective state root is its header's, or a dev edit's (`edit`). */
function chainOf(head: {header: {stateRoot: Uint8Array}}) {
  let edited: Uint8Array | undefined;
  const chain = {
    head: () => head as never,
    stateRootAfter: (header: {stateRoot: Uint8Array}) => edited ?? header.stateRoot,
  };
  return {chain, edit: (root: Uint8Array) => (edited = root)};
}

function setup() {
  const head = {header: {stateRoot: new Uint8Array(32)}};
  const {chain, edit} = chainOf(head);
  let reads = 0;
  const inner = method(
    [param("address", address), optional("block", blockRef, LATEST)],
    () => `0x${(++reads).toString(16)}`,
  );
  const memoized = memoAtHead(new HeadMemo(chain), inner);
  const call = (...raw: unknown[]) => memoized.invoke(raw, {} as RequestContext);
  const newHead = () => {
    head.header = {stateRoot: new Uint8Array(32).fill(1)};
  };
  return {call, newHead, edit, reads: () => reads, memoized, inner};
}

const ALICE = `0x${"11".repeat(20)}`;
const BOB = `0x${"22".repeat(20)}`;

describe("memoAtHead", () => {
  it("answers a repeated read at latest or by default from the memo until the head's state root changes", async () => {
    const {call, newHead, reads} = setup();
    expect(await call(ALICE, "latest")).toBe("0x1");
    expect(await call(ALICE, "latest")).toBe("0x1");
    expect(await call(ALICE)).toBe("0x1");
    expect(await call(BOB, "latest")).toBe("0x2");
    newHead();
    expect(await call(ALICE, "latest")).toBe("0x3");
    expect(reads()).toBe(3);
  });

  it("answers again once a dev control edited the head's state (same head, another state root)", async () => {
    const {call, edit, reads} = setup();
    expect(await call(ALICE, "latest")).toBe("0x1");
    edit(new Uint8Array(32).fill(2));
    expect(await call(ALICE, "latest")).toBe("0x2");
    expect(await call(ALICE, "latest")).toBe("0x2");
    expect(reads()).toBe(2);
  });

  it("always runs reads at other blocks, and never keeps an error", async () => {
    const {call, reads} = setup();
    await call(ALICE, "0x1");
    await call(ALICE, "0x1");
    await call(ALICE, "pending");
    expect(reads()).toBe(3);
    await expect(call("0x12", "latest")).rejects.toThrow();
    await expect(call("0x12", "latest")).rejects.toThrow();
  });

  it("leaves a required block that is omitted to the method", async () => {
    let reads = 0;
    const inner = method([param("address", address), param("block", blockRef)], () => ++reads);
    const memoized = memoAtHead(new HeadMemo(chainOf({header: {stateRoot: new Uint8Array(32)}}).chain), inner);
    await memoized.invoke([ALICE, "latest"], {} as RequestContext);
    await expect(memoized.invoke([ALICE], {} as RequestContext)).rejects.toThrow(/required argument 1/);
    expect(reads).toBe(1);
  });

  it("keeps the method's parameter description", () => {
    const {memoized, inner} = setup();
    expect(memoized.params).toBe(inner.params);
  });
});
