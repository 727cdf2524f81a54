// The start-up warning of a mainnet or testnet node alone follows miner.allowSolo: work refused
// until a peer is seen, or served alone (the first miner of a new network).
import type {Logger} from "@xchain/utils";
import {noopLogger} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {warnIfAlone} from "../../src/log/aloneWarning.ts";

function warned(allowSolo: boolean): string[] {
  const lines: string[] = [];
  const logger: Logger = {...noopLogger, warn: (_c: object | string, message?: string) => lines.push(message ?? "")};
  warnIfAlone({network: "testnet", chainId: 31, p2pEnabled: true, bootnodes: [], allowSolo}, logger);
  return lines;
}

describe("the start-up warning of a node alone, and miner.allowSolo", () => {
  it("without allowSolo: says work is refused until a peer is seen, and how to mine alone", () => {
    const [line, ...more] = warned(false);
    expect(more).toEqual([]);
    expect(line).toContain("mining work is refused until it has seen a peer (miner.allowSolo = true mines alone)");
    expect(line).not.toContain("miner.allowSolo is on");
  });

  it("with allowSolo: says work is served alone, never that it is refused", () => {
    const [line, ...more] = warned(true);
    expect(more).toEqual([]);
    expect(line).toContain("miner.allowSolo is on, so mining work is served alone");
    expect(line).toContain("first miner of a new network");
    expect(line).not.toContain("refused");
    expect(line).toContain("--p2p.bootnodes");
  });
});
