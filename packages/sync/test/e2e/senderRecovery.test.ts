/**
 * Sync with the senders of downloaded blocks recovered ahead on another core (the chain's
 * `SenderRecovery`, a worker thread: an e2e-packages test): every signed transaction reaches the
 * import with its signer already known, and the chain ends where a sync without it ends; a gossiped
 * block that waits for another's import has its senders recovered meanwhile.
 */
import {SenderRecovery} from "@xchain/chain";
import type {Block} from "@xchain/primitives";
import {afterEach, describe, expect, it} from "vitest";
import type {SyncSenderRecovery} from "../../src/types.ts";
import {GatedStore} from "../support/gatedStore.ts";
import {syncSuite} from "../support/suite.ts";
import {hex, newHub, TestNode, waitFor} from "../support/testNode.ts";

const suite = syncSuite();
const recoveries: SenderRecovery[] = [];
afterEach(async () => {
  for (const recovery of recoveries.splice(0)) await recovery.close();
});

describe("sync with sender recovery ahead", () => {
  it("imports every downloaded block with its senders recovered in the worker", async () => {
    const hub = newHub();
    await suite.node(hub, "peer", suite.f.main);
    const local = await suite.node(hub, "local");
    const recovery = new SenderRecovery();
    recoveries.push(recovery);
    // What each import is handed: how many signed transactions, and how many still lacked their signer.
    let signed = 0;
    let unrecovered = 0;
    const importBlock = local.chain.importBlock.bind(local.chain);
    local.chain.importBlock = (block) => {
      const transactions = (block as Block).transactions.slice(0, -1);
      signed += transactions.length;
      unrecovered += transactions.filter((tx) => tx.signerRecoveryInput() !== undefined).length;
      return importBlock(block);
    };
    local.startSync({}, {senderRecovery: recovery});
    hub.connect("local", "peer");

    await waitFor(() => local.chain.head().number === 60, "head 60");
    expect(local.headHex()).toBe(hex(suite.f.main[59] as Block));
    expect(signed).toBe(20);
    expect(unrecovered).toBe(0);
  });

  it("recovers on another core the senders of a gossiped block that waits for the one before it, not of a lone block", async () => {
    const hub = newHub();
    // main[i] is block i + 1; alt branches off block 10 (alt[0] is block 11); main's blocks 12 and 15 hold a transfer.
    const store = new GatedStore();
    const local = suite.track(await TestNode.create(hub, "local", store));
    await local.importBlocks([...suite.f.main.slice(0, 11), suite.f.alt[0]!]);
    const real = new SenderRecovery();
    recoveries.push(real);
    const batches: {count: number; recovered: boolean}[] = [];
    const senderRecovery: SyncSenderRecovery = {
      async recover(transactions) {
        await real.recover(transactions);
        // A transaction whose signer is known has nothing left to recover.
        batches.push({count: transactions.length, recovered: transactions.every((tx) => !tx.signerRecoveryInput())});
      },
    };
    local.startRelay({senderRecovery});
    expect(await local.network.deliver("block", "peer", suite.f.alt[1]!.encode())).toBe("accept");
    expect(batches).toEqual([]);
    // Block 13 of alt imports (held at its write) when block 12 of main, with a transfer, arrives:
    // that one waits, its senders recovered meanwhile.
    store.hold();
    const first = local.network.deliver("block", "peer", suite.f.alt[2]!.encode());
    await waitFor(() => store.waiting === 1, "the first block's import in progress");
    const second = local.network.deliver("block", "peer", suite.f.main[11]!.encode());
    await waitFor(() => batches.length === 1, "the second block's senders recovered");
    store.release();
    expect(await Promise.all([first, second])).toEqual(["accept", "accept"]);
    // Its transactions: the transfer and REMASC's (which has no signer).
    expect(batches).toEqual([{count: 2, recovered: true}]);
    expect(hub.verdicts.map((v) => v.hash)).toEqual([suite.f.alt[1]!, suite.f.alt[2]!, suite.f.main[11]!].map(hex));
    expect(await local.chain.getHeader(suite.f.main[11]!.hash())).toBeDefined();
    expect(local.headHex()).toBe(hex(suite.f.alt[2]!));
  });
});
