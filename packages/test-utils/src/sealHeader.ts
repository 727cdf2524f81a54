/**
 * Sealing a header as rskj's regtest miner does (protocol spec B§6.4): a fake one-transaction
 * Bitcoin block whose coinbase carries `RSKBLOCK:` + hashForMergedMining (with fork-detection data
 * from block 449, B§2.5), its nonce ground to the header's target, and its merged-mining fields.
 */
import type {Chainspec} from "@xchain/chainspec";
import {
  buildFakeBitcoinBlock,
  computeForkDetectionData,
  cpvHeights,
  FORK_DETECTION_MIN_BLOCK,
  FORK_DETECTION_UNCLE_WINDOW,
  grindNonce,
  HASH_FOR_MERGED_MINING_PREFIX_LENGTH,
  mergedMiningFieldsFromBlock,
  powTarget,
  serializeBitcoinBlock,
} from "@xchain/merged-mining";
import {BlockHeader, type HeaderValues} from "@xchain/primitives";

/** The headers of the chain a header extends, by height (undefined above its parent or when unknown). */
export type AncestorLookup = (blockNumber: number) => BlockHeader | undefined;

/** hashForMergedMining of the unsealed `header`: its base hash, with fork-detection data from block 449 on. */
export function hashForMergedMining(header: BlockHeader, ancestorAt: AncestorLookup, chainspec: Chainspec): Uint8Array {
  const base = header.baseHashForMergedMining();
  const height = header.number;
  if (!chainspec.isActive("RSKIP110", height) || height < FORK_DETECTION_MIN_BLOCK) return base;
  let uncleCountSum = 0;
  for (let n = height - FORK_DETECTION_UNCLE_WINDOW; n < height; n++)
    uncleCountSum += ancestor(ancestorAt, n).uncleCount;
  const cpvBitcoinHeaders = cpvHeights(height).map((n) => {
    const bitcoinHeader = ancestor(ancestorAt, n).mergedMining?.bitcoinHeader;
    if (!bitcoinHeader) throw new Error(`ancestor ${n} has no merged-mining fields`);
    return bitcoinHeader;
  });
  const hash = base.slice();
  hash.set(computeForkDetectionData(height, cpvBitcoinHeaders, uncleCountSum), HASH_FOR_MERGED_MINING_PREFIX_LENGTH);
  return hash;
}

/** `values` sealed with a real merged-mining proof at its difficulty. */
export function sealHeader(values: HeaderValues, ancestorAt: AncestorLookup, chainspec: Chainspec): BlockHeader {
  const unsealed = BlockHeader.fromValues({...values, mergedMining: undefined}, chainspec);
  const fake = buildFakeBitcoinBlock({
    hashForMergedMining: hashForMergedMining(unsealed, ancestorAt, chainspec),
    time: values.timestamp,
  });
  const solved = grindNonce(fake.header, powTarget(values.difficulty));
  if (!solved) throw new Error(`no nonce reaches the target of difficulty ${values.difficulty}`);
  return unsealed.withMergedMining(
    mergedMiningFieldsFromBlock(serializeBitcoinBlock(solved, [fake.coinbase])),
    chainspec,
  );
}

function ancestor(ancestorAt: AncestorLookup, blockNumber: number): BlockHeader {
  const header = ancestorAt(blockNumber);
  if (!header) throw new Error(`ancestor ${blockNumber} is not known to the builder`);
  return header;
}
