/**
 * The header part of the block object rskj's `eth_getBlockByNumber` answers (`BlockResultDTO`,
 * docs/protocol/json-rpc.md §5.1), made from a real header: what a node would serve for the real mainnet
 * headers of `test/vectors/`, which hold headers, not JSON. Quantities are written as rskj's
 * `toQuantityJsonHex` writes them (leading zero bytes dropped, so a signed difficulty or a raw gasLimit loses
 * its sign byte); data fields as they are. The headers hold no uncle hashes, only their count: `uncles` lists
 * that many zero hashes unless the caller has the real ones. No body: `transactions` is empty. Left out:
 * hashForMergedMining, size and the difficulty totals, which no header is rebuilt from.
 */
import type {BlockHeader} from "@xchain/primitives";
import {toData, toQuantity} from "@xchain/utils";

const ZERO_HASH = `0x${"00".repeat(32)}`;

/** rskj's JSON block object (header fields, hash, number, uncles) for `header`. */
export function rskjBlockJson(
  header: BlockHeader,
  uncles: string[] = Array.from({length: header.uncleCount}, () => ZERO_HASH),
): Record<string, unknown> {
  const mm = header.mergedMining;
  return {
    number: toQuantity(header.number),
    hash: toData(header.hash()),
    parentHash: toData(header.parentHash),
    sha3Uncles: toData(header.unclesHash),
    logsBloom: toData(header.logsBloom),
    transactionsRoot: toData(header.txTrieRoot),
    stateRoot: toData(header.stateRoot),
    receiptsRoot: toData(header.receiptTrieRoot),
    miner: toData(header.coinbase),
    difficulty: toQuantity(header.difficulty),
    extraData: toData(header.extraData),
    gasLimit: toQuantity(header.gasLimit),
    gasUsed: toQuantity(header.gasUsed),
    timestamp: toQuantity(header.timestamp),
    transactions: [],
    uncles,
    minimumGasPrice: toQuantity(header.minimumGasPrice),
    bitcoinMergedMiningHeader: toData(mm?.bitcoinHeader ?? new Uint8Array(0)),
    bitcoinMergedMiningCoinbaseTransaction: toData(mm?.coinbase ?? new Uint8Array(0)),
    bitcoinMergedMiningMerkleProof: toData(mm?.merkleProof ?? new Uint8Array(0)),
    paidFees: toQuantity(header.paidFees),
  };
}
