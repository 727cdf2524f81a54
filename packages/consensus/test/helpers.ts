/** Shared fixtures of the consensus tests: the real mainnet headers and ways to alter one field. */
import {type Chainspec, getChainspec} from "@xchain/chainspec";
import {BlockHeader, decodeRlpList, type HeaderField, type HeaderValues} from "@xchain/primitives";
import {readMainnetHeaderLines} from "@xchain/test-utils";
import {hexToBytes, NodeError} from "@xchain/utils";
import {HeaderError, type HeaderErrorCode, type HeaderErrorType} from "../src/index.ts";

export const mainnet: Chainspec = getChainspec("mainnet");
export const testnet: Chainspec = getChainspec("testnet");
export const regtest: Chainspec = getChainspec("regtest");

let cached: BlockHeader[] | undefined;

/** The 1,060 consecutive real mainnet headers (4,479,841 to 4,480,900), decoded once. */
export function mainnetHeaders(): BlockHeader[] {
  cached ??= readMainnetHeaderLines().map((line) => BlockHeader.decode(hexToBytes(line), mainnet));
  return cached;
}

/** A real header and its real parent. */
export function headerAndParent(index = 500): {header: BlockHeader; parent: BlockHeader} {
  const headers = mainnetHeaders();
  return {header: headers[index] as BlockHeader, parent: headers[index - 1] as BlockHeader};
}

/** The typed values of a header. */
export function valuesOf(h: BlockHeader): HeaderValues {
  return {
    parentHash: h.parentHash,
    unclesHash: h.unclesHash,
    coinbase: h.coinbase,
    stateRoot: h.stateRoot,
    txTrieRoot: h.txTrieRoot,
    receiptTrieRoot: h.receiptTrieRoot,
    logsBloom: h.logsBloom,
    difficulty: h.difficulty,
    number: h.number,
    gasLimit: h.gasLimit,
    gasUsed: h.gasUsed,
    timestamp: h.timestamp,
    extraData: h.extraData,
    paidFees: h.paidFees,
    minimumGasPrice: h.minimumGasPrice,
    uncleCount: h.uncleCount,
    ummRoot: h.ummRoot,
    mergedMining: h.mergedMining,
  };
}

/** A copy of `header` with some typed values changed, everything else kept. */
export function withValues(header: BlockHeader, changes: Partial<HeaderValues>, chainspec = mainnet): BlockHeader {
  return BlockHeader.fromValues({...valuesOf(header), ...changes}, chainspec);
}

/** A copy of `header` with one RLP element replaced by `bytes`, every other element byte-identical. */
export function withRawField(header: BlockHeader, field: HeaderField | number, bytes: Uint8Array): BlockHeader {
  const items = decodeRlpList(header.encode(), "header");
  items[field] = bytes;
  return BlockHeader.fromRlpItems(items, mainnet);
}

/** The error code `fn` throws, or undefined when it returns. */
export function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    if (e instanceof NodeError) return e.code;
    throw e;
  }
  return undefined;
}

/** The metadata of the `HeaderError` with `code` that `fn` throws (failing the test otherwise). */
export function headerErrorTypeOf<C extends HeaderErrorCode>(
  fn: () => unknown,
  code: C,
): Extract<HeaderErrorType, {code: C}> {
  const err = errorOf(fn);
  if (!(err instanceof HeaderError) || err.type.code !== code) throw new Error(`expected ${code}, got ${err.code}`);
  return err.type as Extract<HeaderErrorType, {code: C}>;
}

/** The error `fn` throws (failing the test when it returns). */
export function errorOf(fn: () => unknown): NodeError<{code: string}> {
  try {
    fn();
  } catch (e) {
    if (e instanceof NodeError) return e;
    throw e;
  }
  throw new Error("expected an error");
}
