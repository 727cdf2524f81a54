/**
 * The block object (docs/rpc.md §2.3, docs/protocol/json-rpc.md §5 `BlockResultDTO`): every field, merged-mining ones
 * included. mixHash is the zero hash and nonce eight zero bytes (Rootstock has no ethash);
 * cumulativeDifficulty is the block's difficulty plus its uncles' (node reference; testnet blocks
 * 3 and 64,746 of the vectors); size is the length of the block's encoding.
 */
import type {Chainspec} from "@xchain/chainspec";
import {sealedHashForMergedMining} from "@xchain/merged-mining";
import type {Block, BlockHeader} from "@xchain/primitives";
import {toData, toQuantity} from "@xchain/utils";
import {formatTransaction, type TransactionJson, ZERO_HASH} from "./transaction.ts";

/** The JSON block object. */
export interface BlockJson {
  number: string;
  hash: string;
  parentHash: string;
  mixHash: string;
  nonce: string;
  sha3Uncles: string;
  logsBloom: string;
  transactionsRoot: string;
  stateRoot: string;
  receiptsRoot: string;
  miner: string;
  difficulty: string;
  totalDifficulty: string | null;
  extraData: string;
  size: string;
  gasLimit: string;
  gasUsed: string;
  timestamp: string;
  transactions: string[] | TransactionJson[];
  uncles: string[];
  minimumGasPrice: string;
  bitcoinMergedMiningHeader: string;
  bitcoinMergedMiningCoinbaseTransaction: string;
  bitcoinMergedMiningMerkleProof: string;
  hashForMergedMining: string;
  paidFees: string;
  cumulativeDifficulty: string;
}

const ZERO_NONCE = "0x0000000000000000";
const EMPTY = new Uint8Array(0);
const ZERO_ADDRESS = new Uint8Array(20);

/**
 * hashForMergedMining of a stored header (docs/protocol/header.md §5): from its coinbase's fork-detection data where
 * RSKIP-110 is active; the base hash for a header without merged-mining fields.
 */
export function hashForMergedMining(header: BlockHeader, chainspec: Chainspec): Uint8Array {
  if (!header.mergedMining) return header.baseHashForMergedMining();
  return sealedHashForMergedMining(header, chainspec.isActive("RSKIP110", header.number));
}

/** The pending block's object: no number, hash, nonce or logs bloom yet (docs/rpc.md §2.3). */
export type PendingBlockJson = Omit<BlockJson, "number" | "hash" | "nonce" | "logsBloom"> & {
  number: null;
  hash: null;
  nonce: null;
  logsBloom: null;
};

/**
 * Formats the pending block: its transactions, when full, show null block fields as pending ones
 * do; `parentTotalDifficulty` is the head's, to which the block would add its cumulative difficulty.
 */
export function formatPendingBlock(
  block: Block,
  parentTotalDifficulty: bigint | undefined,
  fullTransactions: boolean,
  chainspec: Chainspec,
): PendingBlockJson {
  const cumulative = block.uncles.reduce((sum, uncle) => sum + uncle.difficulty, block.header.difficulty);
  const total = parentTotalDifficulty === undefined ? undefined : parentTotalDifficulty + cumulative;
  return {
    ...formatBlock(block, total, false, chainspec),
    number: null,
    hash: null,
    nonce: null,
    logsBloom: null,
    transactions: fullTransactions
      ? block.transactions.map((tx) => formatTransaction(tx))
      : block.transactions.map((tx) => toData(tx.hash())),
  };
}

/** Formats a block (or an uncle: a header with no body, `transactions` and `uncles` empty). */
export function formatBlock(
  block: Block,
  totalDifficulty: bigint | undefined,
  fullTransactions: boolean,
  chainspec: Chainspec,
): BlockJson {
  const {header} = block;
  const hash = block.hash();
  const mm = header.mergedMining;
  const uncleDifficulty = block.uncles.reduce((sum, uncle) => sum + uncle.difficulty, 0n);
  return {
    number: toQuantity(header.number),
    hash: toData(hash),
    parentHash: toData(header.parentHash),
    mixHash: ZERO_HASH,
    nonce: ZERO_NONCE,
    sha3Uncles: toData(header.unclesHash),
    logsBloom: toData(header.logsBloom),
    transactionsRoot: toData(header.txTrieRoot),
    stateRoot: toData(header.stateRoot),
    receiptsRoot: toData(header.receiptTrieRoot),
    miner: toData(header.coinbase.length === 0 ? ZERO_ADDRESS : header.coinbase),
    difficulty: toQuantity(header.difficulty),
    totalDifficulty: totalDifficulty === undefined ? null : toQuantity(totalDifficulty),
    extraData: toData(header.extraData),
    size: toQuantity(block.encode().length),
    gasLimit: toQuantity(header.gasLimit),
    gasUsed: toQuantity(header.gasUsed),
    timestamp: toQuantity(header.timestamp),
    transactions: fullTransactions
      ? block.transactions.map((tx, index) =>
          formatTransaction(tx, {blockHash: hash, blockNumber: header.number, index}),
        )
      : block.transactions.map((tx) => toData(tx.hash())),
    uncles: block.uncles.map((uncle) => toData(uncle.hash())),
    minimumGasPrice: toQuantity(header.minimumGasPrice),
    bitcoinMergedMiningHeader: toData(mm?.bitcoinHeader ?? EMPTY),
    bitcoinMergedMiningCoinbaseTransaction: toData(mm?.coinbase ?? EMPTY),
    bitcoinMergedMiningMerkleProof: toData(mm?.merkleProof ?? EMPTY),
    hashForMergedMining: toData(hashForMergedMining(header, chainspec)),
    paidFees: toQuantity(header.paidFees),
    cumulativeDifficulty: toQuantity(header.difficulty + uncleDifficulty),
  };
}
