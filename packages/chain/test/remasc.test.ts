/**
 * The REMASC payout of docs/protocol/README.md §2: fees go to the REMASC address, and block N pays the fees of
 * block N − maturity (regtest: 10) of its own chain to that block's coinbase.
 */
import {REMASC_ADDRESS} from "@xchain/primitives";
import {afterEach, describe, expect, it} from "vitest";
import {ImportResultKind} from "../src/index.ts";
import {cleanup, cows, newBuilder, openChain, regtest, signTx} from "./helpers.ts";

afterEach(cleanup);

const minerA = new Uint8Array(20).fill(0xaa);
const minerB = new Uint8Array(20).fill(0xbb);

describe("REMASC payout", () => {
  it("pays a block's fees to its coinbase after maturity, on each chain its own matured block", async () => {
    expect(regtest.params.remascMaturity).toBe(10);
    const {chain} = await openChain();
    const builder = await newBuilder();
    const feeA = 21_000n * 3n;
    const feeB = 21_000n * 5n;
    const a1 = await builder.buildBlock({
      coinbase: minerA,
      transactions: [signTx(cows[0]!, {nonce: 0n, to: cows[1]!.address, gasPrice: 3n})],
    });
    const chainA = [a1, ...(await builder.buildChain(10))];
    const b1 = await builder.buildBlock({
      parent: builder.genesis.hash(),
      coinbase: minerB,
      transactions: [signTx(cows[2]!, {nonce: 0n, to: cows[1]!.address, gasPrice: 5n})],
    });
    const chainB = [b1, ...(await builder.buildChain(10))];
    for (const block of [...chainA, ...chainB]) {
      expect((await chain.importBlock(block.encode())).kind).not.toBe(ImportResultKind.INVALID_BLOCK);
    }

    const balances = async (hash: Uint8Array) => {
      const state = await chain.stateAt(hash);
      return Promise.all([minerA, minerB, REMASC_ADDRESS].map((a) => state.getBalance(a)));
    };
    expect(await balances(chainA[9]!.hash())).toEqual([0n, 0n, feeA]);
    expect(await balances(chainA[10]!.hash())).toEqual([feeA, 0n, 0n]);
    expect(await balances(chainB[9]!.hash())).toEqual([0n, 0n, feeB]);
    expect(await balances(chainB[10]!.hash())).toEqual([0n, feeB, 0n]);
  });
});
