/**
 * Sync with the senders of downloaded blocks recovered ahead on another core (the chain's
 * `SenderRecovery`, a worker thread: an e2e-packages test): every signed transaction reaches the
 * import with its signer already known, and the chain ends where a sync without it ends.
 */
import {SenderRecovery} from "@xchain/chain";
import type {Block} from "@xchain/primitives";
import {afterEach, describe, expect, it} from "vitest";
import {syncSuite} from "../support/suite.ts";
import {hex, newHub, waitFor} from "../support/testNode.ts";

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
});
