/**
 * A version-0 Rootstock block header that keeps every field's raw bytes, so that the full encoding, the
 * encoding for the block hash and the encoding for merged mining reproduce rskj's bytes exactly, whatever
 * non-canonical number encodings the producer used (docs/protocol/encoding.md, docs/protocol/header.md).
 */
import {concatBytes, keccak256} from "@xchain/utils";
import {
  decodeNonNegativeSigned,
  decodeSafeInteger,
  decodeUnsigned,
  encodeSigned,
  encodeUnsigned,
  NumberError,
} from "../rlp/numbers.ts";
import {asBytes, decodeRlpList, encodeRlp, RlpError, type RlpItem} from "../rlp/rlp.ts";
import {HeaderDecodeError, HeaderDecodeErrorCode} from "./errors.ts";
import {
  BASE_FIELD_COUNT,
  HeaderField,
  type HeaderValues,
  LOGS_BLOOM_LENGTH,
  MERGED_MINING_FIELD_COUNT,
  type MergedMiningFields,
  UMM_ROOT_LENGTH,
} from "./fields.ts";

/**
 * What the header's encodings depend on besides its own fields. Before RSKIP-92 (mainnet below
 * 729,000, and every genesis block) the block hash also covers the merkle proof and coinbase.
 */
export interface HeaderEncodingRules {
  isRskip92Active(blockNumber: number): boolean;
}

/** The rules of every network whose RSKIP-92 is active from block 0 (testnet, regtest). */
export const RSKIP92_FROM_GENESIS: HeaderEncodingRules = {isRskip92Active: () => true};

export class BlockHeader implements Readonly<HeaderValues> {
  readonly parentHash: Uint8Array;
  readonly unclesHash: Uint8Array;
  readonly coinbase: Uint8Array;
  readonly stateRoot: Uint8Array;
  readonly txTrieRoot: Uint8Array;
  readonly receiptTrieRoot: Uint8Array;
  readonly logsBloom: Uint8Array;
  readonly difficulty: bigint;
  readonly number: number;
  readonly gasLimit: bigint;
  readonly gasUsed: bigint;
  readonly timestamp: number;
  readonly extraData: Uint8Array;
  readonly paidFees: bigint;
  readonly minimumGasPrice: bigint;
  readonly uncleCount: number;
  readonly ummRoot: Uint8Array | undefined;
  readonly mergedMining: MergedMiningFields | undefined;
  /** True when the block hash covers the merkle proof and coinbase (RSKIP-92 not active at this height). */
  readonly mergedMiningProofInHash: boolean;

  /** The header's RLP elements exactly as received or built. */
  private readonly raw: readonly Uint8Array[];
  private cachedHash?: Uint8Array;
  private cachedBaseHashForMergedMining?: Uint8Array;

  private constructor(raw: Uint8Array[], rules: HeaderEncodingRules) {
    this.raw = raw;
    const field = (i: HeaderField) => raw[i] as Uint8Array;
    this.parentHash = fixedLength(field(HeaderField.parentHash), "parentHash", [32]);
    this.unclesHash = fixedLength(field(HeaderField.unclesHash), "unclesHash", [32]);
    this.coinbase = fixedLength(field(HeaderField.coinbase), "coinbase", [0, 20]);
    this.stateRoot = fixedLength(field(HeaderField.stateRoot), "stateRoot", [0, 32]);
    this.txTrieRoot = fixedLength(field(HeaderField.txTrieRoot), "txTrieRoot", [0, 32]);
    this.receiptTrieRoot = fixedLength(field(HeaderField.receiptTrieRoot), "receiptTrieRoot", [0, 32]);
    this.logsBloom = fixedLength(field(HeaderField.logsBloom), "logsBloom", [LOGS_BLOOM_LENGTH]);
    this.difficulty = numeric(() => decodeNonNegativeSigned(field(HeaderField.difficulty), "difficulty"));
    this.number = numeric(() => decodeSafeInteger(field(HeaderField.number), "number"));
    this.gasLimit = numeric(() => decodeUnsigned(field(HeaderField.gasLimit), "gasLimit"));
    this.gasUsed = numeric(() => decodeUnsigned(field(HeaderField.gasUsed), "gasUsed", 63));
    this.timestamp = numeric(() => decodeSafeInteger(field(HeaderField.timestamp), "timestamp"));
    this.extraData = field(HeaderField.extraData);
    this.paidFees = numeric(() => decodeUnsigned(field(HeaderField.paidFees), "paidFees"));
    this.minimumGasPrice = numeric(() =>
      decodeNonNegativeSigned(field(HeaderField.minimumGasPrice), "minimumGasPrice"),
    );
    this.uncleCount = numeric(() => Number(decodeUnsigned(field(HeaderField.uncleCount), "uncleCount", 31)));

    const hasUmm =
      raw.length === BASE_FIELD_COUNT + 1 || raw.length === BASE_FIELD_COUNT + 1 + MERGED_MINING_FIELD_COUNT;
    this.ummRoot = hasUmm
      ? fixedLength(raw[BASE_FIELD_COUNT] as Uint8Array, "ummRoot", [0, UMM_ROOT_LENGTH])
      : undefined;
    const mmStart = BASE_FIELD_COUNT + (hasUmm ? 1 : 0);
    if (raw.length === mmStart + MERGED_MINING_FIELD_COUNT) {
      const [bitcoinHeader, merkleProof, coinbase] = raw.slice(mmStart) as [Uint8Array, Uint8Array, Uint8Array];
      // rskj's hasMiningFields: any non-empty field (an empty merkle proof is a one-transaction Bitcoin block).
      if (bitcoinHeader.length > 0 || merkleProof.length > 0 || coinbase.length > 0) {
        this.mergedMining = {bitcoinHeader, merkleProof, coinbase};
      }
    }
    this.mergedMiningProofInHash = !rules.isRskip92Active(this.number);
  }

  /** Decodes a full header encoding (16, 17, 19 or 20 RLP elements). */
  static decode(bytes: Uint8Array, rules: HeaderEncodingRules): BlockHeader {
    let items: RlpItem[];
    try {
      items = decodeRlpList(bytes, "header");
    } catch (e) {
      if (e instanceof RlpError) {
        throw new HeaderDecodeError({code: HeaderDecodeErrorCode.BAD_RLP, reason: e.code}, `header: ${e.message}`);
      }
      throw e;
    }
    return BlockHeader.fromRlpItems(items, rules);
  }

  /** Builds a header from already-decoded RLP elements (a block body's first item). */
  static fromRlpItems(items: RlpItem[], rules: HeaderEncodingRules): BlockHeader {
    const validCounts = [BASE_FIELD_COUNT, BASE_FIELD_COUNT + 1, BASE_FIELD_COUNT + 3, BASE_FIELD_COUNT + 4];
    if (!validCounts.includes(items.length)) {
      throw new HeaderDecodeError(
        {code: HeaderDecodeErrorCode.WRONG_FIELD_COUNT, count: items.length},
        `header has ${items.length} fields; a version-0 header has 16, 17, 19 or 20`,
      );
    }
    const raw = items.map((item, i) => {
      try {
        return asBytes(item, `header field ${i}`);
      } catch (e) {
        const reason = e instanceof RlpError ? e.code : String(e);
        throw new HeaderDecodeError({code: HeaderDecodeErrorCode.BAD_RLP, reason}, `header field ${i} is a list`);
      }
    });
    return new BlockHeader(raw, rules);
  }

  /**
   * Builds a header from typed values with rskj's number encodings (docs/protocol/encoding.md): what a miner
   * produces.
   */
  static fromValues(values: HeaderValues, rules: HeaderEncodingRules): BlockHeader {
    const raw: Uint8Array[] = [
      values.parentHash,
      values.unclesHash,
      values.coinbase,
      values.stateRoot,
      values.txTrieRoot,
      values.receiptTrieRoot,
      values.logsBloom,
      encodeSigned(values.difficulty),
      encodeUnsigned(BigInt(values.number)),
      encodeSigned(values.gasLimit),
      encodeUnsigned(values.gasUsed),
      encodeUnsigned(BigInt(values.timestamp)),
      values.extraData,
      encodeUnsigned(values.paidFees),
      encodeSigned(values.minimumGasPrice),
      encodeUnsigned(BigInt(values.uncleCount)),
    ];
    if (values.ummRoot !== undefined) raw.push(values.ummRoot);
    if (values.mergedMining) {
      const mm = values.mergedMining;
      raw.push(mm.bitcoinHeader, mm.merkleProof, mm.coinbase);
    }
    return new BlockHeader(raw, rules);
  }

  /** A copy of this header with the merged-mining fields set (sealing a mined header). */
  withMergedMining(mergedMining: MergedMiningFields, rules: HeaderEncodingRules): BlockHeader {
    const base = this.raw.slice(0, this.baseLength());
    return new BlockHeader(
      [...base, mergedMining.bitcoinHeader, mergedMining.merkleProof, mergedMining.coinbase],
      rules,
    );
  }

  /** True when the merged-mining fields are present. */
  get hasMergedMiningFields(): boolean {
    return this.mergedMining !== undefined;
  }

  /** The full encoding: every field, merged-mining fields included (wire and storage form). */
  encode(): Uint8Array {
    return encodeRlp(this.raw as Uint8Array[]);
  }

  /**
   * The encoding the block hash covers (docs/protocol/header.md §3): base fields, ummRoot, and the Bitcoin header;
   * the merkle proof and coinbase only where RSKIP-92 is not active.
   */
  encodeForHash(): Uint8Array {
    const fields = this.raw.slice(0, this.baseLength());
    if (this.mergedMining) {
      fields.push(this.mergedMining.bitcoinHeader);
      if (this.mergedMiningProofInHash) fields.push(this.mergedMining.merkleProof, this.mergedMining.coinbase);
    }
    return encodeRlp(fields);
  }

  /**
   * The encoding merged mining commits to: base fields and ummRoot, no merged-mining field
   * (docs/protocol/header.md §5 step 1).
   */
  encodeForMergedMining(): Uint8Array {
    return encodeRlp(this.raw.slice(0, this.baseLength()));
  }

  /** The block hash: keccak-256 of `encodeForHash()`. */
  hash(): Uint8Array {
    this.cachedHash ??= keccak256(this.encodeForHash());
    return this.cachedHash;
  }

  /**
   * hashForMergedMining before fork-detection data (docs/protocol/header.md §5 steps 1 and 2): keccak-256 of
   * `encodeForMergedMining()`, re-hashed with a non-empty ummRoot. Substituting the
   * fork-detection data (step 3) needs the chain and lives with merged mining.
   */
  baseHashForMergedMining(): Uint8Array {
    if (!this.cachedBaseHashForMergedMining) {
      const base = keccak256(this.encodeForMergedMining());
      this.cachedBaseHashForMergedMining =
        this.ummRoot && this.ummRoot.length > 0 ? keccak256(concatBytes(base.subarray(0, 20), this.ummRoot)) : base;
    }
    return this.cachedBaseHashForMergedMining;
  }

  /** The raw bytes of one base field as encoded (for callers that must hash or compare raw bytes). */
  rawField(field: HeaderField): Uint8Array {
    return this.raw[field] as Uint8Array;
  }

  private baseLength(): number {
    return BASE_FIELD_COUNT + (this.ummRoot !== undefined ? 1 : 0);
  }
}

function fixedLength(value: Uint8Array, field: string, allowed: number[]): Uint8Array {
  if (!allowed.includes(value.length)) {
    throw new HeaderDecodeError(
      {code: HeaderDecodeErrorCode.BAD_FIELD_LENGTH, field, expected: allowed.join(" or "), actual: value.length},
      `header ${field} has ${value.length} bytes, expected ${allowed.join(" or ")}`,
    );
  }
  return value;
}

function numeric<T>(decode: () => T): T {
  try {
    return decode();
  } catch (e) {
    if (e instanceof NumberError) {
      throw new HeaderDecodeError(
        {code: HeaderDecodeErrorCode.BAD_NUMBER, field: e.type.field, reason: e.code},
        e.message,
      );
    }
    throw e;
  }
}
