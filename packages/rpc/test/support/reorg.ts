/** A reorganization of the fixture: block 3 (ping 8) is replaced by f3 (carol pings 9) and f4. */
import type {Block, Transaction} from "@xchain/primitives";
import {carol, type Fixture} from "./fixture.ts";
import {signTx, type TestNode} from "./node.ts";
import {probeCall} from "./probe.ts";

/** The new branch. */
export interface Reorg {
  f3: Block;
  f4: Block;
  pingOnFork: Transaction;
}

/** Builds the branch off block 2 and imports it; the second block makes it the best chain. */
export async function reorganize(node: TestNode, fixture: Fixture): Promise<Reorg> {
  const pingOnFork = signTx(carol, {nonce: 1n, to: fixture.contract, gasLimit: 100_000n, data: probeCall.ping(9n)});
  const f3 = await node.builder.buildBlock({
    parent: fixture.blocks[1],
    transactions: [pingOnFork],
    extraData: Uint8Array.of(2),
  });
  const f4 = await node.builder.buildBlock({parent: f3});
  for (const block of [f3, f4]) await node.chain.importBlock(block.encode());
  if (node.chain.head().number !== 4) throw new Error("the fork did not become the best chain");
  return {f3, f4, pingOnFork};
}
