/**
 * What the Bridge's light client needs to know of each Bitcoin network beyond its genesis header
 * (bitcoinj-thin's `MainNetParams`, `TestNet3Params`, `RegTestParams`; rskj's `BridgeConstants`;
 * docs/protocol/native-contracts.md §10.5): the proof-of-work limit, the retarget schedule, testnet's
 * 20-minute rule, and the checkpoint a fresh store starts from.
 */
import {decodeCompactBits} from "@xchain/merged-mining";
import {bytesToBigInt, hexToBytes} from "@xchain/utils";
import type {StoredBlock} from "../storedBlock.ts";

export type BtcNetworkId = "regtest" | "testnet" | "mainnet";

export interface BtcChainRules {
  /** Largest target a header may claim. */
  maxTarget: bigint;
  /** Blocks between retargets; regtest's 2³¹−1 means never. */
  retargetInterval: number;
  /** The timespan a retarget interval aims at, seconds. */
  targetTimespan: number;
  /**
   * Testnet3's rule: a header more than 2 × 10 minutes after its parent may use the easiest target;
   * other headers repeat the last non-easiest target. Only for header times after `after` (seconds).
   */
  minDifficultyBlocks?: {after: number; spacing: number};
  /**
   * The block a fresh store starts from when it is not genesis: the last checkpoint of rskj's
   * `rskbitcoincheckpoints/<network>.checkpoints`, because rskj passes the federation's creation time
   * in milliseconds where bitcoinj expects seconds, so every checkpoint is "before" it (docs/protocol/native-contracts.md §10.5).
   */
  checkpoint?: StoredBlock;
  /** BTC height from which peg-ins are classified by the peg-out index (btcHeightWhenPegoutTxIndexActivates + grace). */
  pegoutIndexFromHeight: number;
  /** Without RSKIP-434, mainnet refuses headers from this height on (`blockWithTooMuchChainWorkHeight`). */
  tooMuchChainWorkHeight?: number;
}

/** A checkpoint in bitcoinj's legacy compact form: 12-byte chain work, 4-byte height, 80-byte header. */
function checkpoint(hex: string): StoredBlock {
  const bytes = hexToBytes(hex);
  return {
    chainWork: bytesToBigInt(bytes.subarray(0, 12)),
    height: new DataView(bytes.buffer, bytes.byteOffset + 12, 4).getUint32(0),
    header: bytes.slice(16),
  };
}

const TWO_WEEKS = 14 * 24 * 60 * 60;
const BITCOIN_MAX_TARGET = decodeCompactBits(0x1d00ffff);

export const BTC_CHAIN_RULES: Readonly<Record<BtcNetworkId, BtcChainRules>> = {
  regtest: {
    maxTarget: (1n << 263n) - 1n,
    retargetInterval: 2 ** 31 - 1,
    targetTimespan: TWO_WEEKS,
    pegoutIndexFromHeight: 250 + 100,
  },
  testnet: {
    maxTarget: BITCOIN_MAX_TARGET,
    retargetInterval: 2016,
    targetTimespan: TWO_WEEKS,
    // 2012-02-15T00:00:00Z (bitcoinj's `testnetDiffDate`), and 2 × the 10-minute spacing.
    minDifficultyBlocks: {after: 1329264000, spacing: 1200},
    checkpoint: checkpoint(
      "0000010e55be7920b1eb421400171a20" +
        "0000ff3f08d61fcf532a044364f0648a41a55bba405d5aa0bf6f415d8402000000000000a4fb1664d00ae4448dbdf8f99f1a78f7c5bb8036fd69d6f34aed5ee62386f65c1d12cc5cf886021ae7c52b17",
    ),
    pegoutIndexFromHeight: 2_589_553 + 1_440,
  },
  mainnet: {
    maxTarget: BITCOIN_MAX_TARGET,
    retargetInterval: 2016,
    targetTimespan: TWO_WEEKS,
    checkpoint: checkpoint(
      "00cd6eae36c0cee5640896d30007a100" +
        "00000020e37c80a7a8b850e3e89add09090b6b89b874496513ef89000000000000000000285ddc7985e7c34eb205d2c3129727f7bc10873e11e054b48d1a92786a42d7d2c8c8375a459600189b3aa792",
    ),
    pegoutIndexFromHeight: 837_589 + 4_320,
    tooMuchChainWorkHeight: 849_138,
  },
};
