/** The genesis federation as the Bridge answers it (docs/protocol/native-contracts.md §10.3). */
import {getChainspec, regtestBridge, withGenesisFederationKeys} from "@xchain/chainspec";
import {bytesToHex, keccak256, publicKeyOf} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {genesisFederation} from "../../../src/native/bridge/federation.ts";

describe("genesisFederation", () => {
  it("regtest (rskj 9.0.3): sorted members, 2 of 3, the 105-byte script and 2N5muMep…", () => {
    const fed = genesisFederation(regtestBridge);
    expect(fed.members.map((m) => bytesToHex(m.btcPublicKey).slice(0, 6))).toEqual(["02cd53", "036263", "03c594"]);
    expect(fed.members.map((m) => bytesToHex(m.rskAddress))).toEqual([
      "6b045752f4d650a510a353bbf7e52988331e7f5b",
      "85845342b0d5260d516d6da5280a7df9a96d1925",
      "138161cda86b55c0de1bc3a0adef974633c85fbe",
    ]);
    expect(fed.threshold).toBe(2);
    expect(fed.redeemScript.length).toBe(105);
    expect(bytesToHex(fed.redeemScript)).toMatch(/^522102cd53.*21036263.*2103c594.*53ae$/);
    expect(fed.address).toBe("2N5muMepJizJE1gR7FbHJU6CD18V3BpNF9p");
    expect(fed.creationBlockNumber).toBe(1n);
  });

  it("a private network's keys make its own federation, whose members' keys it holds", () => {
    const privateKeys = ["fed-1", "fed-2", "fed-3", "fed-4"].map((s) => keccak256(new TextEncoder().encode(s)));
    const compressed = privateKeys.map((k) => {
      const pub = publicKeyOf(k);
      return `0${2 + ((pub[63] as number) & 1)}${bytesToHex(pub.subarray(0, 32))}`;
    });
    const params = withGenesisFederationKeys(getChainspec("regtest").params, compressed);
    const fed = genesisFederation(params.bridge);
    expect(fed.threshold).toBe(3);
    expect(fed.members.length).toBe(4);
    // Each member's RSK address is the one its private key signs RSK transactions with.
    const addresses = privateKeys.map((k) => bytesToHex(keccak256(publicKeyOf(k)).slice(12))).sort();
    expect(fed.members.map((m) => bytesToHex(m.rskAddress)).sort()).toEqual(addresses);
    expect(fed.address).toMatch(/^2/);
    expect(fed.address).not.toBe(genesisFederation(regtestBridge).address);
  });
});
