import {bytesToHex, reverseBytes, sha256d} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {
  BridgeConfigError,
  BridgeConfigErrorCode,
  getChainspec,
  mainnetBridge,
  REGTEST_GENESIS_FEDERATION_KEYS,
  regtestBridge,
  testnetBridge,
  withGenesisFederationKeys,
} from "../src/index.ts";

const hexes = (list: readonly Uint8Array[]) => list.map((bytes) => bytesToHex(bytes));

describe("Bridge constants (docs/protocol/native-contracts.md §10.3)", () => {
  it("each network's chainspec carries its Bridge constants", () => {
    expect(getChainspec("regtest").params.bridge).toBe(regtestBridge);
    expect(getChainspec("testnet").params.bridge).toBe(testnetBridge);
    expect(getChainspec("mainnet").params.bridge).toBe(mainnetBridge);
  });

  it("regtest's authorizers are the RSK addresses of rskj's generator keys", () => {
    expect(hexes(regtestBridge.federationChangeAuthorizer.addresses)).toEqual([
      "5252403bca6ac3c104abdd320a736fa38282045d",
      "0d8c44bd578a4e7148d1758b3332b529e93e48c1",
      "566bca18df14ed75efcc1a8a4f3947e81132dbbc",
      "2e7c9159614ddc0185e335d3343e92700c3e5a2d",
      "f0652637df184eca87e6bde29893825721dfb79f",
    ]);
    expect(hexes(regtestBridge.feePerKbChangeAuthorizer.addresses)).toEqual([
      "53f8f6dabd612b6137215ddd7758bb5cdd638922",
    ]);
    expect(hexes(regtestBridge.lockWhitelistChangeAuthorizer.addresses)).toEqual([
      "87d2a0f33744929da08b65fd62b627ea52b25f8e",
    ]);
    expect(hexes(regtestBridge.increaseLockingCapAuthorizer.addresses)).toEqual([
      "6913bd4715eff3b25501f3212f15df38296d1f21",
    ]);
  });

  it("regtest's fresh values: minimums, fee per kb, locking cap, creation time", () => {
    expect(regtestBridge.minimumPeginTxValue).toBe(500_000n);
    expect(regtestBridge.minimumPegoutTxValue).toBe(250_000n);
    expect(regtestBridge.genesisFeePerKb).toBe(100_000n);
    expect(regtestBridge.lockingCapInitialValue).toBe(100_000_000_000n);
    expect(regtestBridge.genesisFederation.creationTimeMs).toBe(BigInt(Date.parse("2016-01-01T00:00:00Z")));
    expect(hexes(regtestBridge.genesisFederation.publicKeys)).toContain(
      "02cd53fc53a07f211641a677d250f6de99caf620e8e77071e811a28b3bcddf0be1",
    );
  });

  it.each([regtestBridge, testnetBridge, mainnetBridge])(
    "the Bitcoin genesis header hashes to the genesis hash",
    (b) => {
      expect(b.btcParams.genesisHeader.length).toBe(80);
      expect(bytesToHex(reverseBytes(sha256d(b.btcParams.genesisHeader)))).toBe(bytesToHex(b.btcParams.genesisHash));
    },
  );
});

describe("withGenesisFederationKeys (bridge.genesisFederationPublicKeys)", () => {
  const regtest = getChainspec("regtest").params;
  const key = (n: number) => `02${n.toString(16).padStart(64, "0")}`;

  it("replaces regtest's genesis federation keys and nothing else", () => {
    const params = withGenesisFederationKeys(regtest, [key(1), `0x${key(2)}`]);
    expect(hexes(params.bridge.genesisFederation.publicKeys)).toEqual([key(1), key(2)]);
    expect(params.bridge.genesisFederation.creationTimeMs).toBe(regtestBridge.genesisFederation.creationTimeMs);
    expect(params.bridge.feePerKbChangeAuthorizer).toBe(regtestBridge.feePerKbChangeAuthorizer);
    expect(regtest.bridge.genesisFederation.publicKeys).toBe(REGTEST_GENESIS_FEDERATION_KEYS);
  });

  it("refuses a key that is not a compressed public key, naming it", () => {
    const uncompressed = `04${"11".repeat(64)}`;
    for (const bad of [uncompressed, "02abc", `05${"11".repeat(32)}`]) {
      const e = captured(() => withGenesisFederationKeys(regtest, [bad]));
      expect(e.code).toBe(BridgeConfigErrorCode.BAD_KEY);
      expect(e.message).toContain(bad);
    }
  });

  it("refuses no key, a repeated key and more than 15", () => {
    expect(captured(() => withGenesisFederationKeys(regtest, [])).code).toBe(BridgeConfigErrorCode.BAD_KEY_COUNT);
    expect(captured(() => withGenesisFederationKeys(regtest, [key(1), key(1)])).message).toContain("with repeats");
    const sixteen = Array.from({length: 16}, (_, i) => key(i + 1));
    expect(captured(() => withGenesisFederationKeys(regtest, sixteen)).code).toBe(BridgeConfigErrorCode.BAD_KEY_COUNT);
  });

  it("is refused on testnet and mainnet, as rskj allows it on regtest only", () => {
    for (const name of ["testnet", "mainnet"] as const) {
      const e = captured(() => withGenesisFederationKeys(getChainspec(name).params, [key(1)]));
      expect(e.code).toBe(BridgeConfigErrorCode.NOT_REGTEST);
    }
  });
});

function captured(run: () => unknown): BridgeConfigError {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(BridgeConfigError);
    return e as BridgeConfigError;
  }
  throw new Error("expected a BridgeConfigError");
}
