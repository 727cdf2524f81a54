/**
 * Merged-mining fields from what miners submit (docs/protocol/mining-rpc.md §3); the RPC layer decodes hex
 * and finds the work.
 */
import type {MergedMiningFields} from "@xchain/primitives";
import {type BitcoinBlock, parseBitcoinBlock} from "./bitcoin/block.ts";
import {bitcoinTxid} from "./bitcoin/transaction.ts";
import {compressCoinbase} from "./coinbase.ts";
import {rskip92ProofFromTxids} from "./merkleProof/rskip92.ts";

/**
 * The RSKIP-92 merged-mining fields of a full Bitcoin block (`mnr_submitBitcoinBlock`, and the
 * regtest miner): its header, the proof built from all its txids, and its coinbase (the first
 * transaction) compressed. A segwit coinbase is stripped of its witness first, which rskj does not
 * do (it would reject the solution); xchain accepts it (docs/protocol/README.md §2). Throws BitcoinDecodeError on
 * malformed bytes and a RangeError for a block without transactions.
 */
export function mergedMiningFieldsFromBlock(block: Uint8Array | BitcoinBlock): MergedMiningFields {
  const parsed = block instanceof Uint8Array ? parseBitcoinBlock(block) : block;
  const coinbase = parsed.transactions[0];
  if (!coinbase) throw new RangeError("Bitcoin block has no transactions");
  return {
    bitcoinHeader: parsed.headerBytes,
    merkleProof: rskip92ProofFromTxids(parsed.transactions.map(bitcoinTxid)),
    coinbase: compressCoinbase(coinbase.legacy),
  };
}
