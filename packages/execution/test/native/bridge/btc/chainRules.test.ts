import {mainnetBridge, testnetBridge} from "@xchain/chainspec";
import {decodeCompactBits} from "@xchain/merged-mining";
import {bytesToHex} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {BtcBlockChain} from "../../../../src/native/bridge/btc/blockChain.ts";
import {BridgeBlockStore} from "../../../../src/native/bridge/btc/blockStore.ts";
import {BTC_CHAIN_RULES, type BtcChainRules} from "../../../../src/native/bridge/btc/chainRules.ts";
import {BtcHeaderErrorCode} from "../../../../src/native/bridge/btc/errors.ts";
import {BtcLightClient} from "../../../../src/native/bridge/btc/lightClient.ts";
import {hashOf, memoryBridgeStorage, mineHeader} from "./support.ts";

const REGTEST_LIMIT = decodeCompactBits(0x207fffff);

/** A chain of `count` headers on the store's head, `spacing` seconds apart, all at `bits`. */
async function extend(chain: BtcBlockChain, store: BridgeBlockStore, count: number, spacing: number, bits: number) {
  let tip = (await store.chainHead()).header;
  for (let i = 0; i < count; i++) {
    const time = new DataView(tip.buffer, tip.byteOffset + 68, 4).getUint32(0, true) + spacing;
    tip = mineHeader(tip, {time, bits, nonce: i});
    expect(await chain.add(tip)).toBe("added");
  }
  return tip;
}

async function regtestChain(rules: BtcChainRules) {
  const {storage} = memoryBridgeStorage();
  const store = await BridgeBlockStore.open(storage, {heightIndex: true});
  return {store, chain: new BtcBlockChain(store, rules)};
}

describe("difficulty transitions", () => {
  it("retargets every interval from the clamped timespan of the last interval", async () => {
    // Regtest's limit with a 4-block interval of 4 × 600 s: blocks 3 s apart give a quarter of the timespan
    // (the clamp), so block 4's target is a quarter of genesis's, rounded to nBits' precision.
    const rules: BtcChainRules = {...BTC_CHAIN_RULES.regtest, retargetInterval: 4, targetTimespan: 2400};
    const {store, chain} = await regtestChain(rules);
    const tip = await extend(chain, store, 3, 3, 0x207fffff);
    await expect(chain.add(mineHeader(tip, {bits: 0x207fffff}))).rejects.toMatchObject({
      type: {code: BtcHeaderErrorCode.BAD_DIFFICULTY, height: 4, expected: 0x201fffff},
    });
    expect(decodeCompactBits(0x201fffff)).toBe((REGTEST_LIMIT / 4n) & (0xffffffn << 232n));
    const retargeted = await extend(chain, store, 1, 3, 0x201fffff);
    // Between retargets, nBits must repeat.
    await expect(chain.add(mineHeader(retargeted, {bits: 0x207fffff}))).rejects.toMatchObject({
      type: {code: BtcHeaderErrorCode.BAD_DIFFICULTY, height: 5, expected: 0x201fffff},
    });
  });

  it("applies testnet's 20-minute rule: an easy block after a gap, else the last non-easy target", async () => {
    const rules: BtcChainRules = {
      ...BTC_CHAIN_RULES.regtest,
      // As on testnet, the limit is exactly what the easiest nBits encodes.
      maxTarget: REGTEST_LIMIT,
      retargetInterval: 1000,
      minDifficultyBlocks: {after: 0, spacing: 1200},
    };
    const {store, chain} = await regtestChain(rules);
    // Genesis is at the limit: a quick block must repeat the last target that is not the limit, which is
    // genesis's own (the walk stops at genesis), while any target goes after more than 20 minutes.
    await extend(chain, store, 1, 1201, 0x203fffff);
    const easy = await extend(chain, store, 1, 1201, 0x207fffff);
    // A quick block after an easy one walks back to the last hard one (0x203fffff).
    await expect(chain.add(mineHeader(easy, {bits: 0x207fffff, time: 1296688602 + 3000}))).rejects.toMatchObject({
      type: {code: BtcHeaderErrorCode.BAD_DIFFICULTY, expected: 0x203fffff},
    });
    expect(await chain.add(mineHeader(easy, {bits: 0x203fffff, time: 1296688602 + 3000}))).toBe("added");
  });
});

describe("the networks' first stored block", () => {
  it("starts testnet and mainnet at the last checkpoint of rskj's files, regtest at genesis", async () => {
    const cases = [
      {
        constants: testnetBridge,
        height: 1514016,
        hash: "000000000000013d3dd95fb84b56616dd29409dc9750e200b2c19f435e561d5e",
      },
      {
        constants: mainnetBridge,
        height: 499968,
        hash: "000000000000000000296e10eb4987c4eb9b7ba0841102dec4480e5d6b89acb5",
      },
    ];
    for (const {constants, height, hash} of cases) {
      const {storage} = memoryBridgeStorage(constants);
      const client = await BtcLightClient.open(storage, {heightIndex: true, tooMuchChainWorkFixed: true});
      expect(await client.bestChainHeight()).toBe(height);
      expect(client.initialBlockHeight()).toBe(height);
      expect(bytesToHex(await client.blockHashAtDepth(0))).toBe(hash);
      expect(bytesToHex(hashOf(await client.bestBlockHeader()))).toBe(hash);
    }
  });
});
