/**
 * The receipt object (docs/rpc.md §2.5): status rather than root (every receipt is post-Byzantium
 * style), effectiveGasPrice = the transaction's gasPrice (legacy transactions pay it), and
 * contractAddress for every creation, failed ones included (rskj and geth), from sender and nonce.
 * Log indexes count from the start of the block.
 */
import type {LogWithContext} from "@xchain/chain";
import {type Block, encodeRlp, encodeUnsigned, type Receipt, type Transaction} from "@xchain/primitives";
import {keccak256, toData, toQuantity} from "@xchain/utils";
import {formatLog, type LogJson} from "./log.ts";

/** The JSON receipt object. */
export interface ReceiptJson {
  transactionHash: string;
  transactionIndex: string;
  blockHash: string;
  blockNumber: string;
  from: string;
  to: string | null;
  cumulativeGasUsed: string;
  gasUsed: string;
  effectiveGasPrice: string;
  contractAddress: string | null;
  logs: LogJson[];
  logsBloom: string;
  status: string;
  type: string;
}

/** The address a creation by `sender` with `nonce` deploys to: keccak256(rlp([sender, nonce]))[12:]. */
export function createdContractAddress(sender: Uint8Array, nonce: bigint): Uint8Array {
  return keccak256(encodeRlp([sender, encodeUnsigned(nonce)])).slice(12);
}

/** The logs of the receipt at `index` of `block`, with their block-wide indexes. */
export function receiptLogs(block: Block, receipts: readonly Receipt[], index: number): LogWithContext[] {
  const blockHash = block.hash();
  const transactionHash = (block.transactions[index] as Transaction).hash();
  let logIndex = receipts.slice(0, index).reduce((sum, r) => sum + r.logs.length, 0);
  return (receipts[index] as Receipt).logs.map((log) => ({
    log,
    blockHash,
    blockNumber: block.header.number,
    transactionHash,
    transactionIndex: index,
    logIndex: logIndex++,
    removed: false,
  }));
}

/** Formats the receipt of the transaction at `index` of a stored block. */
export function formatReceipt(block: Block, receipts: readonly Receipt[], index: number): ReceiptJson {
  const tx = block.transactions[index] as Transaction;
  const receipt = receipts[index] as Receipt;
  const sender = tx.sender();
  return {
    transactionHash: toData(tx.hash()),
    transactionIndex: toQuantity(index),
    blockHash: toData(block.hash()),
    blockNumber: toQuantity(block.header.number),
    from: toData(sender),
    to: tx.to ? toData(tx.to) : null,
    cumulativeGasUsed: toQuantity(receipt.cumulativeGas),
    gasUsed: toQuantity(receipt.gasUsed),
    effectiveGasPrice: toQuantity(tx.gasPrice),
    contractAddress: tx.to ? null : toData(createdContractAddress(sender, tx.nonce)),
    logs: receiptLogs(block, receipts, index).map(formatLog),
    logsBloom: toData(receipt.logsBloom),
    status: receipt.success ? "0x1" : "0x0",
    type: "0x0",
  };
}
