/**
 * bitcoinj-thin's `checkDifficultyTransitions` (docs/protocol/native-contracts.md §10.5): between
 * retargets a header repeats its parent's nBits (testnet3 also admits 20-minute easy blocks); at a
 * retarget point nBits must be the parent's target scaled by the clamped timespan of the last interval.
 */
import {type BitcoinHeader, decodeCompactBits, encodeCompactBits} from "@xchain/merged-mining";
import type {StoredBlock} from "../storedBlock.ts";
import type {BtcChainRules} from "./chainRules.ts";
import {BtcHeaderError, BtcHeaderErrorCode} from "./errors.ts";

/** Looks a stored block up by its parent link: the block whose hash is `header.prevBlockHash`. */
export type ParentLookup = (block: StoredBlock) => Promise<StoredBlock | undefined>;

const bitsOf = (header80: Uint8Array): number =>
  new DataView(header80.buffer, header80.byteOffset + 72, 4).getUint32(0, true);
const timeOf = (header80: Uint8Array): number =>
  new DataView(header80.buffer, header80.byteOffset + 68, 4).getUint32(0, true);

function badDifficulty(prev: StoredBlock, next: BitcoinHeader, expected: number): BtcHeaderError {
  return new BtcHeaderError(
    {code: BtcHeaderErrorCode.BAD_DIFFICULTY, height: prev.height + 1, bits: next.bits, expected},
    `Bitcoin header at height ${prev.height + 1} has nBits ${next.bits.toString(16)}, expected ${expected.toString(16)}`,
  );
}

function missingAncestor(height: number): BtcHeaderError {
  return new BtcHeaderError(
    {code: BtcHeaderErrorCode.RETARGET_ANCESTOR_MISSING, height},
    `Bitcoin header at height ${height}: the store lacks the ancestors its difficulty depends on`,
  );
}

/** Testnet3's easy-block rule (`TestNet3Params.checkDifficultyTransitions`). */
async function checkTestnetEasyBlock(
  rules: BtcChainRules,
  prev: StoredBlock,
  next: BitcoinHeader,
  parentOf: ParentLookup,
  spacing: number,
): Promise<void> {
  const delta = next.time - timeOf(prev.header);
  // After a 20-minute gap (or a time going backwards: bitcoin-qt's underflow) any target up to the limit goes.
  if (delta < 0 || delta > spacing) return;
  let cursor = prev;
  while (
    cursor.height % rules.retargetInterval !== 0 &&
    decodeCompactBits(bitsOf(cursor.header)) === rules.maxTarget &&
    cursor.height !== 0
  ) {
    const parent = await parentOf(cursor);
    if (parent === undefined) throw missingAncestor(prev.height + 1);
    cursor = parent;
  }
  if (decodeCompactBits(bitsOf(cursor.header)) !== decodeCompactBits(next.bits)) {
    throw badDifficulty(prev, next, bitsOf(cursor.header));
  }
}

/** Throws BtcHeaderError BAD_DIFFICULTY (or RETARGET_ANCESTOR_MISSING) unless `next` may follow `prev`. */
export async function checkDifficultyTransition(
  rules: BtcChainRules,
  prev: StoredBlock,
  next: BitcoinHeader,
  parentOf: ParentLookup,
): Promise<void> {
  const prevBits = bitsOf(prev.header);
  if ((prev.height + 1) % rules.retargetInterval !== 0) {
    const easy = rules.minDifficultyBlocks;
    if (easy !== undefined && next.time > easy.after)
      return checkTestnetEasyBlock(rules, prev, next, parentOf, easy.spacing);
    if (next.bits !== prevBits) throw badDifficulty(prev, next, prevBits);
    return;
  }
  let cursor: StoredBlock | undefined = prev;
  for (let i = 0; i < rules.retargetInterval - 1; i++) {
    cursor = await parentOf(cursor);
    if (cursor === undefined) throw missingAncestor(prev.height + 1);
  }
  const span = rules.targetTimespan;
  const timespan = Math.min(Math.max(timeOf(prev.header) - timeOf(cursor.header), span / 4), span * 4);
  let target = (decodeCompactBits(prevBits) * BigInt(Math.trunc(timespan))) / BigInt(span);
  if (target > rules.maxTarget) target = rules.maxTarget;
  // The computed target is more precise than nBits: keep only the bytes nBits can express.
  const accuracyBytes = (next.bits >>> 24) - 3;
  const mask = accuracyBytes >= 0 ? 0xffffffn << BigInt(accuracyBytes * 8) : 0xffffffn >> BigInt(-accuracyBytes * 8);
  const expected = encodeCompactBits(target & mask);
  if (expected !== next.bits) throw badDifficulty(prev, next, expected);
}
