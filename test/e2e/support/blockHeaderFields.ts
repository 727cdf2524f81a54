// What BlockHeader (docs/protocol/native-contracts.md §3) answers for a block, computed from the block
// as eth_getBlockByNumber gives it: numbers as Java's BigInteger.toByteArray, the merged-mining tags
// after the last "RSKBLOCK:" and the 32-byte hash.
import {toQuantity} from "ethers";
import {expect} from "vitest";
import {rpc} from "./jsonRpc.ts";

/** A quantity's minimal big-endian bytes as hex (0x00 for zero). */
function evenHex(quantity: string): string {
  const hex = BigInt(quantity).toString(16);
  return `0x${hex.length % 2 ? `0${hex}` : hex}`;
}

/** Java's BigInteger.toByteArray of a quantity: a leading 00 when the top bit is set. */
function javaBytes(quantity: string): string {
  const hex = evenHex(quantity);
  return Number.parseInt(hex.slice(2, 4), 16) >= 0x80 ? `0x00${hex.slice(2)}` : hex;
}

/** The answer of each one-argument BlockHeader method for block `number`, by method name. */
export async function blockHeaderFields(url: string, number: number): Promise<Record<string, string>> {
  const block = await rpc<Record<string, string>>(url, "eth_getBlockByNumber", [toQuantity(number), false]);
  // A single miner's chain has no uncles: the difficulty with uncles is the block's own.
  expect(block.uncles).toEqual([]);
  const coinbase = (block.bitcoinMergedMiningCoinbaseTransaction as string).slice(2);
  const tag = coinbase.lastIndexOf(Buffer.from("RSKBLOCK:").toString("hex"));
  expect(tag).toBeGreaterThan(0);
  return {
    getMergedMiningTags: `0x${coinbase.slice(tag + 2 * (9 + 32))}`,
    getCoinbaseAddress: block.miner as string,
    getBlockHash: block.hash as string,
    getMinGasPrice: javaBytes(block.minimumGasPrice as string),
    // The header holds it as rskj writes it, BigInteger.toByteArray (the contract answers the stored bytes).
    getGasLimit: javaBytes(block.gasLimit as string),
    getGasUsed: javaBytes(block.gasUsed as string),
    getDifficulty: javaBytes(block.difficulty as string),
    getDifficultyWithUncles: javaBytes(block.difficulty as string),
    getCumulativeWork: javaBytes(block.totalDifficulty as string),
    getBitcoinHeader: block.bitcoinMergedMiningHeader as string,
  };
}
