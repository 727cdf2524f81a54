/**
 * Sealing a header as rskj's regtest miner does (docs/protocol/mining-rpc.md §6): a fake one-transaction
 * Bitcoin block whose coinbase carries `RSKBLOCK:` + hashForMergedMining (with fork-detection data
 * from block 449, docs/protocol/header.md §5), its nonce ground to the header's target, and its merged-mining fields.
 */
import type {Chainspec} from "@xchain/chainspec";
import {
  type AncestorLookup,
  buildFakeBitcoinBlock,
  grindNonce,
  mergedMiningFieldsFromBlock,
  powTarget,
  serializeBitcoinBlock,
  unsealedHashForMergedMining,
} from "@xchain/merged-mining";
import {BlockHeader, type HeaderValues} from "@xchain/primitives";

// The miner computes hashForMergedMining the same way; it lives with merged mining.
export {type AncestorLookup, unsealedHashForMergedMining} from "@xchain/merged-mining";

/** `values` sealed with a real merged-mining proof at its difficulty. */
export function sealHeader(values: HeaderValues, ancestorAt: AncestorLookup, chainspec: Chainspec): BlockHeader {
  const unsealed = BlockHeader.fromValues({...values, mergedMining: undefined}, chainspec);
  const fake = buildFakeBitcoinBlock({
    hashForMergedMining: unsealedHashForMergedMining(
      unsealed,
      ancestorAt,
      chainspec.isActive("RSKIP110", values.number),
    ),
    time: values.timestamp,
  });
  const solved = grindNonce(fake.header, powTarget(values.difficulty));
  if (!solved) throw new Error(`no nonce reaches the target of difficulty ${values.difficulty}`);
  return unsealed.withMergedMining(
    mergedMiningFieldsFromBlock(serializeBitcoinBlock(solved, [fake.coinbase])),
    chainspec,
  );
}
