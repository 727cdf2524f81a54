/**
 * bitcoinj-thin's SPV `BtcBlockChain.add` over the Bridge's block store (docs/protocol/native-contracts.md
 * §10.5): verify the header's proof of work (no timestamp check: bitcoinj comments it out), find its
 * parent, check its difficulty, then extend the head, store a side branch, or reorganize to the branch
 * with more chain work, rewriting the main-chain height index from the split point.
 */
import {bitcoinPowValue, decodeCompactBits, parseBitcoinHeader} from "@xchain/merged-mining";
import {bytesToHex, equalBytes, reverseBytes} from "@xchain/utils";
import {blockHashOf, type StoredBlock, workOf} from "../storedBlock.ts";
import type {BtcChainRules} from "./chainRules.ts";
import {checkDifficultyTransition} from "./difficulty.ts";
import {BtcHeaderError, BtcHeaderErrorCode} from "./errors.ts";

/** The store `add` runs over; hashes in display byte order. */
export interface BtcBlockStore {
  get(hash: Uint8Array): Promise<StoredBlock | undefined>;
  put(block: StoredBlock): Promise<void>;
  chainHead(): Promise<StoredBlock>;
  /** Makes `block` the head and indexes it at its height. */
  setChainHead(block: StoredBlock): Promise<void>;
  /** Indexes `hash` as the main chain's block at `height`. */
  setMainChainBlock(height: number, hash: Uint8Array): Promise<void>;
}

/** The parent hash of a stored block, display order. */
export const parentHashOf = (block: StoredBlock): Uint8Array => reverseBytes(block.header.subarray(4, 36));

const sameBlock = (a: StoredBlock, b: StoredBlock): boolean =>
  a.height === b.height && a.chainWork === b.chainWork && equalBytes(a.header, b.header);

/** What `addHeader` did: the header was new and is now stored, was already known, or has no stored parent. */
export type AddHeaderResult = "added" | "known" | "orphan";

/** bitcoinj's `verifyHeader`: the target is positive and within the limit, and the hash is at most the target. */
function verifyProofOfWork(rules: BtcChainRules, header80: Uint8Array, bits: number): void {
  const target = decodeCompactBits(bits);
  if (target <= 0n || target > rules.maxTarget) {
    throw new BtcHeaderError(
      {code: BtcHeaderErrorCode.BAD_TARGET, bits},
      `Bitcoin header nBits ${bits.toString(16)} is a bad target`,
    );
  }
  if (bitcoinPowValue(header80) > target) {
    const hash = bytesToHex(blockHashOf(header80));
    throw new BtcHeaderError(
      {code: BtcHeaderErrorCode.HASH_ABOVE_TARGET, hash},
      `Bitcoin header ${hash} is above its target`,
    );
  }
}

function notConnected(block: StoredBlock): BtcHeaderError {
  const hash = bytesToHex(blockHashOf(block.header));
  return new BtcHeaderError(
    {code: BtcHeaderErrorCode.NOT_CONNECTED, hash},
    `Bitcoin header ${hash} follows an orphan chain`,
  );
}

/** The light client's chain: `add` of bitcoinj's `BtcAbstractBlockChain` in SPV mode. */
export class BtcBlockChain {
  constructor(
    private readonly store: BtcBlockStore,
    private readonly rules: BtcChainRules,
  ) {}

  private readonly parentOf = (block: StoredBlock) => this.store.get(parentHashOf(block));

  /** Adds one 80-byte header; throws BtcHeaderError when bitcoinj would throw a VerificationException. */
  async add(header80: Uint8Array): Promise<AddHeaderResult> {
    const header = parseBitcoinHeader(header80);
    const head = await this.store.chainHead();
    if (equalBytes(header80, head.header)) return "known";
    if ((await this.store.get(blockHashOf(header80))) !== undefined) return "known";
    verifyProofOfWork(this.rules, header80, header.bits);
    const prev = await this.store.get(reverseBytes(header.prevBlockHash));
    if (prev === undefined) return "orphan";
    await checkDifficultyTransition(this.rules, prev, header, this.parentOf);
    const block: StoredBlock = {
      header: header80.slice(),
      chainWork: prev.chainWork + workOf(header80),
      height: prev.height + 1,
    };
    if (sameBlock(prev, head)) {
      await this.store.put(block);
      await this.store.setChainHead(block);
    } else if (block.chainWork > head.chainWork) {
      await this.reorganize(block, head);
    } else {
      // A side branch: bitcoinj still walks to the split point, which fails on a branch below the store's start.
      await this.findSplit(block, head);
      await this.store.put(block);
    }
    return "added";
  }

  /** `handleNewBestChain`: index the new branch from the split point up, then make its tip the head. */
  private async reorganize(tip: StoredBlock, head: StoredBlock): Promise<void> {
    const split = await this.findSplit(tip, head);
    let cursor = tip;
    while (!sameBlock(cursor, split)) {
      await this.store.setMainChainBlock(cursor.height, blockHashOf(cursor.header));
      const parent = await this.parentOf(cursor);
      if (parent === undefined) throw notConnected(tip);
      cursor = parent;
    }
    await this.store.put(tip);
    await this.store.setChainHead(tip);
  }

  /** The highest block both chains share (bitcoinj's `findSplit`). */
  private async findSplit(newTip: StoredBlock, oldTip: StoredBlock): Promise<StoredBlock> {
    let current: StoredBlock = oldTip;
    let other: StoredBlock = newTip;
    while (!sameBlock(current, other)) {
      const next = current.height > other.height ? await this.parentOf(current) : await this.parentOf(other);
      if (next === undefined) throw notConnected(newTip);
      if (current.height > other.height) current = next;
      else other = next;
    }
    return current;
  }
}
