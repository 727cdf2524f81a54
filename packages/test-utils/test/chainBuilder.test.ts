import {getChainspec, regtestGenesis} from "@xchain/chainspec";
import {
  calculateDifficulty,
  checkForkDetectionData,
  validateHeaderAgainstParent,
  validateHeaderStandalone,
} from "@xchain/consensus";
import {Block, type BlockHeader, isRemascTransaction, Transaction} from "@xchain/primitives";
import {describe, expect, it} from "vitest";
import {ChainBuilder, cowAccounts} from "../src/index.ts";

const regtest = getChainspec("regtest");

function newBuilder(): Promise<ChainBuilder> {
  return ChainBuilder.create({
    chainspec: regtest,
    genesis: regtestGenesis,
    difficulty: (h, p) => calculateDifficulty(h, p, regtest),
  });
}

describe("ChainBuilder", () => {
  it("builds sealed blocks that pass the header rules, closed by the REMASC transaction", async () => {
    const builder = await newBuilder();
    const blocks = await builder.buildChain(3);
    let parent = builder.genesis.header;
    for (const block of blocks) {
      const decoded = Block.decode(block.encode(), {rules: regtest, chainId: 33});
      expect(decoded.hash()).toEqual(block.hash());
      expect(() => validateHeaderStandalone(block.header, regtest, {nowSeconds: 0})).not.toThrow();
      expect(() => validateHeaderAgainstParent(block.header, parent, regtest)).not.toThrow();
      expect(block.header.ummRoot).toEqual(new Uint8Array(0));
      expect(isRemascTransaction(block.transactions.at(-1)!)).toBe(true);
      parent = block.header;
    }
    expect(builder.tip).toBe(blocks[2]);
    expect(builder.blockAt(2)).toBe(blocks[1]);
  });

  it("builds forks on any earlier block, and refuses a parent it did not build", async () => {
    const builder = await newBuilder();
    const [b1] = await builder.buildChain(2);
    const fork = await builder.buildBlock({parent: b1, extraData: Uint8Array.of(9)});
    expect(fork.header.number).toBe(2);
    expect(fork.header.parentHash).toEqual(b1!.hash());
    expect(builder.blockAt(1, fork)).toBe(b1);
    await expect(builder.buildBlock({parent: new Uint8Array(32)})).rejects.toThrow("not built by this builder");
  });

  it("forgets the blocks below a number and keeps building on the tip", async () => {
    const builder = await newBuilder();
    const blocks = await builder.buildChain(4);
    builder.forgetBlocksBelow(3);
    expect(builder.blockAt(2)).toBeUndefined();
    expect(builder.block(blocks[0]!.hash())).toBeUndefined();
    expect(builder.blockAt(3)).toBe(blocks[2]);
    await expect(builder.buildBlock({parent: blocks[1]!})).rejects.toThrow("not built by this builder");
    const next = await builder.buildBlock();
    expect(next.header.parentHash).toEqual(blocks[3]!.hash());
  });

  it("refuses skipped candidates unless allowed", async () => {
    const builder = await newBuilder();
    const cow = cowAccounts()[0]!;
    const tx = Transaction.sign(
      {nonce: 5n, gasPrice: 0n, gasLimit: 21_000n, to: cow.address, value: 0n, data: new Uint8Array(0)},
      cow.privateKey,
      33,
    );
    await expect(builder.buildBlock({transactions: [tx]})).rejects.toThrow("assembly skipped");
    const built = await builder.build({transactions: [tx], allowSkipped: true});
    expect(built.assembled.skipped).toHaveLength(1);
    expect(built.block.transactions).toHaveLength(1);
  });

  it("seals fork-detection data from block 449 on", async () => {
    const builder = await newBuilder();
    const blocks = await builder.buildChain(451);
    const ancestry = {headerByNumber: (n: number): BlockHeader | undefined => builder.blockAt(n)?.header};
    for (const block of blocks.slice(447)) {
      expect(() => validateHeaderStandalone(block.header, regtest, {nowSeconds: 0})).not.toThrow();
      expect(checkForkDetectionData(block.header, ancestry, regtest).checked).toBe(block.header.number !== 449);
    }
  });
});
