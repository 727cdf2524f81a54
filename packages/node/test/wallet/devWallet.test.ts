import {cowAccounts} from "@xchain/test-utils";
import {bytesToHex, bytesToPrefixedHex, utf8ToBytes} from "@xchain/utils";
import {verifyMessage} from "ethers";
import {describe, expect, it} from "vitest";
import {cowPrivateKeys, createDevWallet} from "../../src/wallet/devWallet.ts";

describe("createDevWallet", () => {
  it("derives the ten funded regtest accounts from their seeds (docs/protocol/networks.md §3)", () => {
    expect(cowPrivateKeys().map(bytesToHex)).toEqual(cowAccounts().map((a) => bytesToHex(a.privateKey)));
    const wallet = createDevWallet(true, 33);
    expect(wallet?.accounts().map(bytesToHex)).toEqual(cowAccounts().map((a) => bytesToHex(a.address)));
  });

  it("signs personal messages that ethers verifies", () => {
    const wallet = createDevWallet(true, 33)!;
    const [cow] = wallet.accounts();
    const signature = wallet.signMessage(cow!, utf8ToBytes("hello"));
    expect(verifyMessage("hello", bytesToPrefixedHex(signature)).toLowerCase()).toBe(bytesToPrefixedHex(cow!));
  });

  it("holds nothing when disabled", () => {
    expect(createDevWallet(false, 33)).toBeUndefined();
  });
});
