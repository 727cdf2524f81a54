/** The header object of `newHeads` notifications (docs/rpc.md §2.7). */
import type {BlockHeader} from "@xchain/primitives";
import {toData, toQuantity} from "@xchain/utils";

/** The JSON header object. */
export interface HeaderJson {
  difficulty: string;
  extraData: string;
  gasLimit: string;
  gasUsed: string;
  logsBloom: string;
  miner: string;
  number: string;
  parentHash: string;
  receiptsRoot: string;
  sha3Uncles: string;
  stateRoot: string;
  timestamp: string;
  transactionsRoot: string;
  hash: string;
}

/** Formats a header. */
export function formatHeader(header: BlockHeader): HeaderJson {
  return {
    difficulty: toQuantity(header.difficulty),
    extraData: toData(header.extraData),
    gasLimit: toQuantity(header.gasLimit),
    gasUsed: toQuantity(header.gasUsed),
    logsBloom: toData(header.logsBloom),
    miner: toData(header.coinbase),
    number: toQuantity(header.number),
    parentHash: toData(header.parentHash),
    receiptsRoot: toData(header.receiptTrieRoot),
    sha3Uncles: toData(header.unclesHash),
    stateRoot: toData(header.stateRoot),
    timestamp: toQuantity(header.timestamp),
    transactionsRoot: toData(header.txTrieRoot),
    hash: toData(header.hash()),
  };
}

/**
 * The raw header of `xchain_getRawBlockHeaderBy*` (docs/protocol/json-rpc.md §2): the encoding the block hash covers,
 * so keccak-256 of it is the block hash (merkle proof and coinbase only before RSKIP-92, docs/protocol/header.md §3.2).
 */
export function formatRawHeader(header: BlockHeader): string {
  return toData(header.encodeForHash());
}
