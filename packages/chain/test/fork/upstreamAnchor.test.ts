/**
 * The anchor header from an upstream's fork block: a Rootstock upstream's real header (rebuilt under
 * the upstream network's encoding heights and proven by its hash), an Ethereum upstream's stand-in.
 */
import {forkChainspec} from "@xchain/chainspec";
import {BlockHeader, EMPTY_UNCLES_HASH} from "@xchain/primitives";
import type {ForkHeader} from "@xchain/state";
import {readJsonVector, readMainnetHeaderLines, rskjBlockJson} from "@xchain/test-utils";
import {bytesToHex, hexToBytes, toData} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {anchorHeader, BlockJsonErrorCode, upstreamAncestry, upstreamFamily} from "../../src/index.ts";

/** The fork header a `ForkSource` keeps of a block object. */
function forkHeaderOf(json: Record<string, unknown>): ForkHeader {
  const q = (field: string) => BigInt(json[field] as string);
  return {
    number: Number(q("number")),
    hash: hexToBytes(json.hash as string),
    parentHash: hexToBytes(json.parentHash as string),
    stateRoot: hexToBytes(json.stateRoot as string),
    timestamp: q("timestamp"),
    gasLimit: q("gasLimit"),
    difficulty: q("difficulty"),
    baseFeePerGas: json.baseFeePerGas === undefined ? undefined : q("baseFeePerGas"),
    json,
  };
}

describe("anchorHeader", () => {
  it("rebuilds a mainnet header under mainnet's heights (RSKIP-92 from 729,000)", () => {
    const rules = forkChainspec({upstreamChainId: 30, forkBlockNumber: 0});
    const header = BlockHeader.decode(hexToBytes(readMainnetHeaderLines()[3] as string), rules);
    const json = rskjBlockJson(header);
    expect(upstreamFamily(json)).toBe("rootstock");
    const fork = forkChainspec({upstreamChainId: 30, forkBlockNumber: header.number});
    expect(bytesToHex(anchorHeader(forkHeaderOf(json), fork).hash())).toBe(bytesToHex(header.hash()));
    // A field changed by the upstream (or on the way) does not hash to the block's hash.
    const tampered = {...json, stateRoot: toData(new Uint8Array(32).fill(7))};
    expect(() => anchorHeader(forkHeaderOf(tampered), fork)).toThrow(
      expect.objectContaining({code: BlockJsonErrorCode.HASH_MISMATCH}),
    );
  });

  it("rebuilds a testnet header from testnet's own JSON under testnet's heights", () => {
    const {blocks} = readJsonVector<{blocks: {number: number; rpcJson: Record<string, unknown>}[]}>(
      "testnet-blocks-from-rpc-json.json",
    );
    const block = blocks[0]!;
    const fork = forkChainspec({upstreamChainId: 31, forkBlockNumber: block.number});
    const header = anchorHeader(forkHeaderOf(block.rpcJson), fork);
    expect(toData(header.hash())).toBe(block.rpcJson.hash);
  });

  it("stands in for an Ethereum block with its fields, at the fork's minimum difficulty after the merge", () => {
    const json = {
      number: "0x1312d00",
      hash: toData(new Uint8Array(32).fill(1)),
      parentHash: toData(new Uint8Array(32).fill(2)),
      stateRoot: toData(new Uint8Array(32).fill(3)),
      miner: toData(new Uint8Array(20).fill(4)),
      timestamp: "0x65000000",
      gasLimit: "0x1c9c380",
      difficulty: "0x0",
      baseFeePerGas: "0x7",
      withdrawalsRoot: toData(new Uint8Array(32)),
    };
    expect(upstreamFamily(json)).toBe("ethereum");
    const fork = forkChainspec({upstreamChainId: 1, forkBlockNumber: 20_000_000});
    const header = anchorHeader(forkHeaderOf(json), fork);
    expect(header).toMatchObject({
      number: 20_000_000,
      timestamp: 0x65000000,
      gasLimit: 30_000_000n,
      difficulty: fork.minimumDifficulty(20_000_000),
      paidFees: 0n,
      minimumGasPrice: 0n,
    });
    expect([header.parentHash, header.stateRoot, header.coinbase, header.unclesHash]).toEqual([
      hexToBytes(json.parentHash),
      hexToBytes(json.stateRoot),
      hexToBytes(json.miner),
      EMPTY_UNCLES_HASH,
    ]);
    // Its own hash, not the upstream's; decoding its encoding gives it back.
    expect(header.hash()).not.toEqual(hexToBytes(json.hash));
    expect(BlockHeader.decode(header.encode(), fork).hash()).toEqual(header.hash());
  });
});

describe("upstreamAncestry", () => {
  it("asks the source at and below the fork block only", async () => {
    const asked: number[] = [];
    const source = {
      header: forkHeaderOf({
        number: "0x10",
        hash: toData(new Uint8Array(32).fill(9)),
        parentHash: toData(new Uint8Array(32)),
        stateRoot: toData(new Uint8Array(32)),
        timestamp: "0x1",
        gasLimit: "0x1",
        difficulty: "0x1",
      }),
      blockHash: async (n: number) => {
        asked.push(n);
        return new Uint8Array(32).fill(n);
      },
    };
    const ancestry = upstreamAncestry(source);
    expect(ancestry.number).toBe(16);
    expect(await ancestry.hashAt(13)).toEqual(new Uint8Array(32).fill(13));
    expect(await ancestry.hashAt(17)).toBeUndefined();
    expect(asked).toEqual([13]);
  });
});
