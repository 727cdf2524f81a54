// When the node may call itself synced: eth_syncing's status, mining work on mainnet and testnet,
// the start-up warning of a node alone, and net_peerList's peer ids.
import type {Logger} from "@xchain/utils";
import {noopLogger} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {warnIfAlone} from "../src/log/aloneWarning.ts";
import {formatPeer} from "../src/p2pStack.ts";
import {syncStatusOf, workNotSyncedReason} from "../src/syncStanding.ts";

const standing = (seen: boolean, progress?: {startingBlock: number; currentBlock: number; highestBlock: number}) => ({
  hasSeenPeer: () => seen,
  syncProgress: () => progress,
});

describe("eth_syncing's status", () => {
  it("is the running sync's, else a sync not begun (all the head) while the first peer is awaited, else none", () => {
    const running = {startingBlock: 1, currentBlock: 5, highestBlock: 90};
    expect(syncStatusOf(running, true, 5)).toBe(running);
    expect(syncStatusOf(undefined, true, 7)).toEqual({startingBlock: 7, currentBlock: 7, highestBlock: 7});
    expect(syncStatusOf(undefined, false, 7)).toBeUndefined();
  });
});

describe("mining work's standing", () => {
  it("is always served on regtest and custom networks", () => {
    expect(workNotSyncedReason("regtest", undefined)).toBeUndefined();
    expect(workNotSyncedReason("custom", standing(false))).toBeUndefined();
  });

  it("on mainnet and testnet needs p2p, a peer seen and no sync running", () => {
    expect(workNotSyncedReason("testnet", undefined)).toBe("this testnet node runs without p2p (p2p.enabled = false)");
    expect(workNotSyncedReason("mainnet", standing(false))).toBe("this mainnet node has not seen a peer yet");
    expect(workNotSyncedReason("testnet", standing(true, {startingBlock: 0, currentBlock: 3, highestBlock: 9}))).toBe(
      "this testnet node is syncing (block 3 of 9)",
    );
    expect(workNotSyncedReason("testnet", standing(true))).toBeUndefined();
  });
});

describe("the start-up warning of a node alone", () => {
  const capture = () => {
    const lines: string[] = [];
    const logger: Logger = {...noopLogger, warn: (_c: object | string, message?: string) => lines.push(message ?? "")};
    return {lines, logger};
  };

  it("says what the network is, whose it is and how to add bootnodes", () => {
    const {lines, logger} = capture();
    expect(
      warnIfAlone({network: "testnet", chainId: 31, p2pEnabled: true, bootnodes: [], allowSolo: false}, logger),
    ).toBe(true);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("testnet (chain id 31) is xchain's own testnet, not Rootstock's");
    expect(lines[0]).toContain("no bootnodes are configured");
    expect(lines[0]).toContain("--p2p.bootnodes");
    expect(lines[0]).toContain("p2p.bootnodes in node.config.toml");
    expect(lines[0]).toContain("miner.allowSolo");
  });

  it("names p2p being off, and stays quiet with bootnodes or on regtest", () => {
    const {lines, logger} = capture();
    warnIfAlone(
      {
        network: "mainnet",
        chainId: 30,
        p2pEnabled: false,
        bootnodes: ["/ip4/1.2.3.4/tcp/5050/p2p/x"],
        allowSolo: false,
      },
      logger,
    );
    expect(lines[0]).toContain("p2p is off (p2p.enabled = false)");
    expect(
      warnIfAlone(
        {network: "mainnet", chainId: 30, p2pEnabled: true, bootnodes: ["/ip4/1.2.3.4"], allowSolo: false},
        logger,
      ),
    ).toBe(false);
    expect(
      warnIfAlone({network: "regtest", chainId: 33, p2pEnabled: true, bootnodes: [], allowSolo: false}, logger),
    ).toBe(false);
    expect(lines).toHaveLength(1);
  });
});

describe("net_peerList's entries", () => {
  it("give the full peer id, then host and port", () => {
    const entry = (id: string, remoteAddress = "/ip4/127.0.0.1/tcp/50501") => formatPeer({id, remoteAddress});
    const id = "16Uiu2HAmVjddjq5XBuk2RtSR2dZSuUSGha7wXksDvQJCsnEmoPEP";
    expect(entry(id)).toBe(`${id}@127.0.0.1:50501`);
    expect(entry(id, "/ip6/::1/tcp/50501")).toBe(`${id}@[::1]:50501`);
  });
});
