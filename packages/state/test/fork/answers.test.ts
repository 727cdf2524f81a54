/** Reading upstream answers (docs/forking.md §1.1): Ethereum's and rskj's block fields, storage words, dialects. */
import {describe, expect, it} from "vitest";
import {AnswerError, forkHeader, storageWord} from "../../src/fork/answers.ts";
import {dialectOf} from "../../src/fork/dialect.ts";

const H = (b: string) => `0x${b.repeat(64)}`;

describe("fork answers", () => {
  it("reads an Ethereum block with base fee, withdrawals and typed transactions", () => {
    const header = forkHeader({
      number: "0x1312d00",
      hash: H("1"),
      parentHash: H("2"),
      stateRoot: H("3"),
      timestamp: "0x65a0c0c0",
      gasLimit: "0x1c9c380",
      difficulty: "0x0",
      baseFeePerGas: "0x3b9aca00",
      withdrawalsRoot: H("4"),
      blobGasUsed: "0x20000",
      transactions: [{type: "0x2", maxFeePerGas: "0x1", hash: H("5")}],
    });
    expect([header.number, header.baseFeePerGas, header.difficulty]).toEqual([20_000_000, 1_000_000_000n, 0n]);
    expect(header.json.withdrawalsRoot).toBe(H("4"));
    expect(header.json.transactions).toBeUndefined();
  });

  it("reads an rskj block (padded quantities, no base fee, merged-mining fields)", () => {
    const header = forkHeader({
      number: "0x0a",
      hash: H("1"),
      parentHash: H("2"),
      stateRoot: H("3"),
      timestamp: "0x5c3a9f0b",
      gasLimit: "0x0067c280",
      difficulty: "0x00100000",
      bitcoinMergedMiningHeader: "0x00",
      transactions: [],
    });
    expect([header.number, header.gasLimit, header.baseFeePerGas]).toEqual([10, 0x67c280n, undefined]);
  });

  it("names what is wrong in a block", () => {
    expect(() => forkHeader(null)).toThrow(new AnswerError("the block is not an object: null"));
    expect(() => forkHeader({number: "0x1", hash: "0x12"})).toThrow(/the block's hash is not 32 bytes of hex: "0x12"/);
  });

  it("reads storage words as DATA or QUANTITY, padded to 32 bytes", () => {
    expect(storageWord(`0x${"00".repeat(31)}2a`, "v")[31]).toBe(0x2a);
    expect(storageWord("0x2a", "v")).toEqual(storageWord(`0x${"00".repeat(31)}2a`, "v"));
    expect(storageWord("0x", "v")).toEqual(new Uint8Array(32));
    expect(() => storageWord("0xzz", "the value")).toThrow(AnswerError);
  });

  it("tells the dialect from web3_clientVersion", () => {
    expect(dialectOf("RskJ/6.4.0/Linux/Java1.8/ARROWHEAD-6.4.0-abc")).toBe("rskj");
    expect(dialectOf("xchain/v0.1.0/linux-x64/node20")).toBe("xchain");
    expect(dialectOf("Geth/v1.14.0-stable/linux-amd64/go1.22")).toBe("ethereum");
    expect(dialectOf("anvil/v1.0.0")).toBe("ethereum");
    expect(dialectOf("something")).toBe("unknown");
  });
});
