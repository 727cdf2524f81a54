// Merged-mining metrics from the miner's events: work served, submissions by result label.
import {EventEmitter} from "node:events";
import {ImportResultKind} from "@xchain/chain";
import {MinerError, MinerErrorCode, type MinerEvents} from "@xchain/miner";
import {subscribe} from "@xchain/utils";
import {Registry} from "prom-client";
import {describe, expect, it} from "vitest";
import {createMiningMetrics} from "../../src/metrics/miningMetrics.ts";

const result = {importResult: ImportResultKind.IMPORTED_BEST, blockHash: new Uint8Array(32), blockIncludedHeight: 1};

describe("the mining metrics", () => {
  it("count work served and label submissions by import result, MinerError code, ACCEPTED/REJECTED or error", async () => {
    const registry = new Registry();
    const events = new EventEmitter<MinerEvents>();
    subscribe(events, createMiningMetrics(registry));
    events.emit("workServed", {method: "mnr_getWork"});
    events.emit("workServed", {method: "eth_getWork"});
    events.emit("submission", {method: "mnr_submitBitcoinBlock", outcome: {kind: "imported", result}});
    const error = new MinerError({code: MinerErrorCode.WORK_NOT_FOUND});
    events.emit("submission", {
      method: "mnr_submitBitcoinBlockTransactions",
      outcome: {kind: "refused", reason: error.message, error},
    });
    events.emit("submission", {method: "mnr_submitBitcoinBlock", outcome: {kind: "failed", error: new Error("io")}});
    events.emit("submission", {method: "eth_submitWork", outcome: {kind: "imported", result}});
    events.emit("submission", {method: "eth_submitWork", outcome: {kind: "refused", reason: "above the target"}});
    events.emit("submission", {method: "eth_submitWork", outcome: {kind: "refused", reason: error.message, error}});
    events.emit("submission", {method: "eth_submitWork", outcome: {kind: "failed", error: new Error("io")}});
    events.emit("blockMined", {result});
    const text = await registry.metrics();
    expect(text).toContain("xchain_mm_work_served_total 2\n");
    expect(text).toContain('xchain_mm_submissions_total{result="IMPORTED_BEST"} 1\n');
    expect(text).toContain('xchain_mm_submissions_total{result="MINER_WORK_NOT_FOUND"} 1\n');
    expect(text).toContain('xchain_mm_submissions_total{result="error"} 2\n');
    expect(text).toContain('xchain_mm_submissions_total{result="ACCEPTED"} 1\n');
    expect(text).toContain('xchain_mm_submissions_total{result="REJECTED"} 2\n');
  });
});
