import type {Chainspec} from "@xchain/chainspec";
import {type BlockHeader, unclesHash} from "@xchain/primitives";
import {equalBytes, NodeError} from "@xchain/utils";
import {HeaderError, HeaderErrorCode} from "../errors.ts";

/** One of the block's main-chain ancestors, with the hashes of the uncles it included. */
export interface FamilyAncestor {
  header: BlockHeader;
  uncleHashes: readonly Uint8Array[];
}

/**
 * The header rules every uncle must pass (docs/protocol/consensus.md §3): injected so that the uncle structure can be
 * checked, and tested, apart from proof of work. `headerValidator.ts` provides the real ones.
 */
export interface UncleHeaderRules {
  /** The uncle's own rules (proof of work, timestamps, gas used...). */
  standalone(uncle: BlockHeader): void;
  /** The uncle's rules against its own parent (number, difficulty, gas price and gas limit bands...). */
  againstParent(uncle: BlockHeader, parent: BlockHeader): void;
}

/**
 * The uncles of a block (docs/protocol/consensus.md §3, rskj `BlockUnclesValidationRule`, `FamilyUtils`): `uncles` are
 * the block body's uncle headers in order; `ancestors` are the block's main-chain ancestors
 * (at least those within uncleGenerationLimit generations; older ones are ignored) with the
 * uncles each included. Cheap structural checks run for every uncle before any uncle's header
 * rules; a failing header rule is reported as UNCLE_INVALID with the rule's code as `cause`.
 */
export function unclesRule(
  header: BlockHeader,
  uncles: readonly BlockHeader[],
  ancestors: readonly FamilyAncestor[],
  chainspec: Chainspec,
  rules: UncleHeaderRules,
): void {
  // The count must agree with the list (docs/protocol/header.md §1): the difficulty formula and the
  // fork-detection data read it.
  if (header.uncleCount !== uncles.length) {
    throw new HeaderError({
      code: HeaderErrorCode.UNCLE_COUNT_MISMATCH,
      expected: header.uncleCount,
      actual: uncles.length,
    });
  }
  const expectedUnclesHash = unclesHash(uncles);
  if (!equalBytes(expectedUnclesHash, header.unclesHash)) {
    throw new HeaderError({
      code: HeaderErrorCode.UNCLES_HASH_MISMATCH,
      expected: expectedUnclesHash,
      actual: header.unclesHash,
    });
  }
  if (uncles.length === 0) return;
  const {uncleListLimit, uncleGenerationLimit} = chainspec.params;
  if (uncles.length > uncleListLimit) {
    throw new HeaderError({code: HeaderErrorCode.TOO_MANY_UNCLES, limit: uncleListLimit, actual: uncles.length});
  }

  // rskj's ancestor set: the parent and its ancestors down to height max(0, N - generation limit).
  const oldest = Math.max(0, header.number - uncleGenerationLimit);
  const family: Family = {
    blockNumber: header.number,
    generationLimit: uncleGenerationLimit,
    recent: ancestors.filter((a) => a.header.number >= oldest && a.header.number < header.number),
  };
  const parents = uncles.map((uncle, uncleIndex) => checkUncleStructure(family, uncles, uncle, uncleIndex));
  for (const [uncleIndex, uncle] of uncles.entries()) {
    const parent = parents[uncleIndex] as BlockHeader;
    withUncleContext(uncle, uncleIndex, () => {
      rules.standalone(uncle);
      rules.againstParent(uncle, parent);
    });
  }
}

/** What the structural checks of one uncle compare it with. */
interface Family {
  blockNumber: number;
  generationLimit: number;
  /** The block's ancestors within the generation limit. */
  recent: readonly FamilyAncestor[];
}

/** Checks the uncle's place in the family and returns its parent. */
function checkUncleStructure(
  {blockNumber, generationLimit, recent}: Family,
  uncles: readonly BlockHeader[],
  uncle: BlockHeader,
  uncleIndex: number,
): BlockHeader {
  if (uncle.number >= blockNumber) {
    throw new HeaderError({code: HeaderErrorCode.UNCLE_NOT_OLDER, uncleIndex, uncleNumber: uncle.number, blockNumber});
  }
  // The uncle's parent must be at most generationLimit blocks below the block.
  if (uncle.number - 1 < blockNumber - generationLimit) {
    throw new HeaderError({
      code: HeaderErrorCode.UNCLE_TOO_OLD,
      uncleIndex,
      uncleNumber: uncle.number,
      blockNumber,
      generationLimit,
    });
  }
  const uncleHash = uncle.hash();
  if (uncles.slice(0, uncleIndex).some((earlier) => equalBytes(earlier.hash(), uncleHash))) {
    throw new HeaderError({code: HeaderErrorCode.UNCLE_DUPLICATE, uncleIndex, uncleHash});
  }
  if (recent.some((a) => equalBytes(a.header.hash(), uncleHash))) {
    throw new HeaderError({code: HeaderErrorCode.UNCLE_IS_ANCESTOR, uncleIndex, uncleHash});
  }
  if (recent.some((a) => a.uncleHashes.some((used) => equalBytes(used, uncleHash)))) {
    throw new HeaderError({code: HeaderErrorCode.UNCLE_ALREADY_INCLUDED, uncleIndex, uncleHash});
  }
  const parent = recent.find((a) => equalBytes(a.header.hash(), uncle.parentHash));
  if (!parent) {
    throw new HeaderError({code: HeaderErrorCode.UNCLE_PARENT_UNKNOWN, uncleIndex, parentHash: uncle.parentHash});
  }
  return parent.header;
}

function withUncleContext(uncle: BlockHeader, uncleIndex: number, validate: () => void): void {
  try {
    validate();
  } catch (e) {
    if (!(e instanceof NodeError)) throw e;
    throw new HeaderError({
      code: HeaderErrorCode.UNCLE_INVALID,
      uncleIndex,
      uncleHash: uncle.hash(),
      cause: e.code,
      detail: e.message,
    });
  }
}
