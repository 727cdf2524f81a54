import {hexToBytes} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {formatCount, formatDuration, shortHash, shortPeerId} from "../../src/log/format.ts";
import {headStallMs} from "../../src/log/headStall.ts";
import {devAccountsText, minerLine, startupBannerLines} from "../../src/log/startupBanner.ts";
import {cowPrivateKeys} from "../../src/wallet/devWallet.ts";

describe("log formatting", () => {
  it("shortens hashes and peer ids to the parts that differ", () => {
    expect(shortHash(hexToBytes(`${"1a2b3c4d".padEnd(60, "0")}9f8e`))).toBe("0x1a2b3c4d…9f8e");
    expect(shortPeerId("16Uiu2HAmVjddjq5XBuk2RtSR2dZSuUSGha7wXksDvQJCsnEmoPEP")).toBe("…snEmoPEP");
  });

  it("writes durations and counts for people", () => {
    expect(formatDuration(-20)).toBe("0 ms");
    expect(formatDuration(850)).toBe("850 ms");
    expect(formatDuration(4_200)).toBe("4.2 s");
    expect(formatDuration(180_000)).toBe("3 min");
    expect(formatDuration(5 * 3_600_000)).toBe("5 h");
    expect(formatDuration(2 * 86_400_000)).toBe("2 d");
    expect(formatCount(1_234_567n)).toBe("1,234,567");
  });

  it("says how the miner makes blocks", () => {
    const coinbase = new Uint8Array(20).fill(0xab);
    const miner = {enabled: true, coinbase, blockTimeMs: 5_000, autoMine: true, instant: false};
    expect(minerLine(miner)).toBe(
      `miner on: coinbase 0x${"ab".repeat(20)}, a block every 5.0 s and when transactions are pending`,
    );
    expect(minerLine({...miner, blockTimeMs: 1_000, instant: true})).toBe(
      `miner on: coinbase 0x${"ab".repeat(20)}, a block every 1.0 s and as soon as a transaction arrives`,
    );
    expect(minerLine({...miner, blockTimeMs: 0, autoMine: false})).toMatch(/only on evm_mine$/);
    expect(minerLine({...miner, enabled: false})).toMatch(/^miner off/);
  });

  it("prints the ten dev accounts with their keys and a warning, and the banner's lines in order", () => {
    const text = devAccountsText(cowPrivateKeys());
    const rows = text.split("\n");
    expect(rows[0]).toMatch(/PUBLIC/);
    expect(rows).toHaveLength(11);
    // cow's address (docs/protocol/networks.md §3) and key keccak256("cow").
    expect(rows[1]).toBe(
      "(0) 0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826  0xc85ef7d79691fe79573b1a7064c19c1a9819ebdbd1faaab1a8ec92344438aaf4",
    );
    const lines = startupBannerLines({
      version: "0.1.0",
      network: "testnet",
      chainId: 31,
      dataDir: "/data",
      head: {number: 7, hash: new Uint8Array(32)},
      p2p: undefined,
      miner: {enabled: false, coinbase: new Uint8Array(20), blockTimeMs: 0, autoMine: false, instant: false},
      devKeys: [],
    }).map((l) => l.msg);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe("xchain 0.1.0 on testnet (chain id 31), data directory /data, head block 7 0x00000000…0000");
    expect(lines[1]).toBe("p2p off");
  });

  it("picks the head-stall threshold: the setting, else 3 block intervals, none on regtest without a block time", () => {
    const base = {headStallSeconds: undefined, minerEnabled: false, blockTimeMs: 0, targetIntervalSeconds: 14};
    expect(headStallMs({...base, network: "testnet"})).toBe(42_000);
    expect(headStallMs({...base, network: "regtest"})).toBeUndefined();
    expect(headStallMs({...base, network: "regtest", minerEnabled: true, blockTimeMs: 1_000})).toBe(3_000);
    expect(headStallMs({...base, network: "testnet", headStallSeconds: 0})).toBeUndefined();
    expect(headStallMs({...base, network: "regtest", headStallSeconds: 5})).toBe(5_000);
  });
});
