/**
 * The chain most method tests read: block 1 deploys the Probe, block 2 stores 42 (a `Stored` log)
 * and pings 7 (a `Pinged` log) and transfers 5 wei, block 3 pings 8.
 */
import type {Block, Transaction} from "@xchain/primitives";
import {afterAll, beforeAll} from "vitest";
import {createdContractAddress} from "../../src/format/receipt.ts";
import {cows, signTx, TestNode} from "./node.ts";
import {probe, probeCall} from "./probe.ts";

/** What the fixture built. */
export interface Fixture {
  contract: Uint8Array;
  blocks: [Block, Block, Block];
  deploy: Transaction;
  store: Transaction;
  ping: Transaction;
  transfer: Transaction;
  ping8: Transaction;
}

export const [alice, bob, carol, dave] = [cows[0]!, cows[1]!, cows[2]!, cows[3]!];

/** Builds and imports the fixture's three blocks. */
export async function buildFixture(node: TestNode): Promise<Fixture> {
  const deploy = signTx(alice, {nonce: 0n, gasLimit: 1_000_000n, data: probe().bytecode});
  const contract = createdContractAddress(alice.address, 0n);
  const b1 = await node.mine({transactions: [deploy]});
  const store = signTx(alice, {
    nonce: 1n,
    to: contract,
    gasLimit: 200_000n,
    gasPrice: 1n,
    data: probeCall.store(42n, 0xabn),
  });
  const ping = signTx(bob, {nonce: 0n, to: contract, gasLimit: 100_000n, data: probeCall.ping(7n)});
  const transfer = signTx(carol, {nonce: 0n, to: dave.address, value: 5n});
  const b2 = await node.mine({transactions: [store, ping, transfer]});
  const ping8 = signTx(bob, {nonce: 1n, to: contract, gasLimit: 100_000n, data: probeCall.ping(8n)});
  const b3 = await node.mine({transactions: [ping8]});
  return {contract, blocks: [b1, b2, b3], deploy, store, ping, transfer, ping8};
}

/** A node with the fixture's chain for one test file: started before its tests, closed after them. */
export function useFixtureNode(): {readonly node: TestNode; readonly fixture: Fixture} {
  const shared = {} as {node: TestNode; fixture: Fixture};
  beforeAll(async () => {
    shared.node = await TestNode.start();
    shared.fixture = await buildFixture(shared.node);
  });
  afterAll(() => shared.node?.close());
  return shared;
}
