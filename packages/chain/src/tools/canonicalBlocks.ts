/**
 * The canonical blocks of a stored chain as their encodings, in order: what `xchain db export`
 * writes (docs/operations.md §5). Each block's header is checked against the hash the canonical
 * index gives it, so a damaged database stops the export with the block named instead of writing
 * bytes another node would refuse.
 */
import type {Chainspec} from "@xchain/chainspec";
import type {KeyValueStore} from "@xchain/db";
import {bytesToPrefixedHex, equalBytes} from "@xchain/utils";
import {ChainError, ChainErrorCode} from "../errors.ts";
import {defaultChainOptions} from "../options.ts";
import {ChainStore} from "../store/chainStore.ts";

/** One canonical block: its number, hash and encoding (`Block.encode`). */
export interface EncodedBlock {
  number: number;
  hash: Uint8Array;
  encoding: Uint8Array;
}

/**
 * The canonical blocks `from` to `to` (inclusive) of `kv`, read one at a time. Throws
 * CHAIN_MISSING_DATA naming the first height the store cannot give whole (no canonical entry, no
 * header or body, or a header that is not the block the index names).
 */
export async function* canonicalBlocks(
  kv: KeyValueStore,
  chainspec: Chainspec,
  range: {from: number; to: number},
): AsyncGenerator<EncodedBlock> {
  const store = new ChainStore(
    kv,
    {rules: chainspec, chainId: chainspec.params.chainId},
    {...defaultChainOptions, headerCacheSize: 1},
  );
  for (let number = range.from; number <= range.to; number++) {
    const hash = await store.canonical.hashAt(number);
    if (!hash) throw missing(`#${number}`, "canonical entry", `block ${number} has no canonical entry`);
    const hex = bytesToPrefixedHex(hash);
    const header = await store.blocks.getHeader(hash);
    if (!header || !equalBytes(header.hash(), hash)) {
      throw missing(hex, "header", `block ${number} (${hex}) has ${header ? "another block's" : "no"} header`);
    }
    const encoding = await store.blocks.getBlockEncoding(hash);
    if (!encoding) throw missing(hex, "body", `block ${number} (${hex}) has no body`);
    yield {number, hash, encoding};
  }
}

function missing(hash: string, what: "canonical entry" | "header" | "body", detail: string): ChainError {
  return new ChainError(
    {code: ChainErrorCode.MISSING_DATA, hash, missing: what},
    `the database is damaged: ${detail}; run xchain db verify (docs/operations.md §6)`,
  );
}
