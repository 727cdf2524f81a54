/**
 * A dev node's own impersonated transactions (docs/rpc.md §4.10): imported as the miner passes
 * them (Block objects carrying the sender), their sender recorded in the block's batch and carried
 * again when the block is read, after a restart too; a peer, given the bytes, cannot recover it.
 */
import {regtestGenesis} from "@xchain/chainspec";
import {Bucket, LevelStore} from "@xchain/db";
import {Transaction} from "@xchain/primitives";
import {hexToBytes} from "@xchain/utils";
import {afterEach, describe, expect, it} from "vitest";
import {Chain, defaultChainOptions, ImportResultKind} from "../src/index.ts";
import {emitter} from "./contracts.ts";
import {cleanup, cows, newBuilder, openChain, regtest, signTx} from "./helpers.ts";

afterEach(cleanup);

const keyless = hexToBytes("0x00000000000000000000000000000000000c0ffe");
const chainId = regtest.params.chainId;

function impersonated(values: {nonce: bigint; to?: Uint8Array; value?: bigint; data?: Uint8Array; gasLimit?: bigint}) {
  return Transaction.impersonate(
    {gasPrice: 0n, gasLimit: 21_000n, value: 0n, data: new Uint8Array(0), to: undefined, ...values},
    keyless,
    chainId,
  );
}

/** A funding block (a cow pays `keyless`), then a block of two transactions from `keyless`: a transfer and a deployment. */
async function buildBlocks() {
  const builder = await newBuilder();
  const [alice, bob] = cows;
  const funding = await builder.buildBlock({
    transactions: [signTx(alice!, {nonce: 0n, to: keyless, value: 10n ** 18n})],
  });
  const built = await builder.build({
    transactions: [
      impersonated({nonce: 0n, to: bob!.address, value: 1000n}),
      impersonated({nonce: 1n, gasLimit: 1_000_000n, data: emitter().bytecode}),
    ],
  });
  return {funding, block: built.block, outcomes: built.assembled.result.outcomes};
}

describe("impersonated transactions in the chain", () => {
  it("imports the miner's block, records the senders and carries them again after a restart", async () => {
    const first = await openChain();
    const {funding, block, outcomes} = await buildBlocks();
    expect(outcomes.slice(0, 2).map((o) => o.status)).toEqual([true, true]);
    expect((await first.chain.importBlock(funding)).kind).toBe(ImportResultKind.IMPORTED_BEST);
    expect((await first.chain.importBlock(block)).kind).toBe(ImportResultKind.IMPORTED_BEST);
    const state = await first.chain.stateAt(block.hash());
    expect(await state.getNonce(keyless)).toBe(2n);
    const [transfer, deploy] = block.transactions;
    expect(await first.store.get(Bucket.impersonatedSender, transfer!.hash())).toEqual(keyless);
    const read = await first.chain.getBlock(block.hash());
    expect(read!.transactions.slice(0, 2).map((tx) => tx.sender())).toEqual([keyless, keyless]);
    await first.store.close();

    const store = await LevelStore.open(first.dir);
    try {
      const chain = await Chain.open(defaultChainOptions, {store, chainspec: regtest, genesis: regtestGenesis});
      const reread = await chain.getBlock(block.hash());
      expect(reread!.transactions.slice(0, 2).map((tx) => tx.sender())).toEqual([keyless, keyless]);
      expect(reread!.transactions.slice(0, 2).map((tx) => tx.hash())).toEqual([transfer!.hash(), deploy!.hash()]);
      expect((await chain.getReceipts(block.hash()))!.map((r) => r.success)).toEqual([true, true, true]);
      // Ordinary transactions are not looked up: the funding block has no record.
      const fundingTx = (await chain.getBlock(funding.hash()))!.transactions[0]!;
      expect(fundingTx.impersonatedSender).toBeUndefined();
      expect(fundingTx.sender()).toEqual(cows[0]!.address);
    } finally {
      await store.close();
    }
  });

  it("a node given the block's bytes (a peer) recovers no such sender and refuses the block", async () => {
    const peer = await openChain();
    const {funding, block} = await buildBlocks();
    expect((await peer.chain.importBlock(funding.encode())).kind).toBe(ImportResultKind.IMPORTED_BEST);
    const result = await peer.chain.importBlock(block.encode());
    expect(result.kind).toBe(ImportResultKind.INVALID_BLOCK);
    expect(await peer.store.get(Bucket.impersonatedSender, block.transactions[0]!.hash())).toBeUndefined();
  });
});
