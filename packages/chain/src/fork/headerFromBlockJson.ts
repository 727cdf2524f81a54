/**
 * Rebuilds a block's full header from the JSON block object that rskj's or xchain's `eth_getBlockByNumber`
 * answers (docs/protocol/json-rpc.md §5.1), and proves the rebuild right: the rebuilt header must hash to the
 * object's own `hash`. The JSON carries every header field except two, which come from the height:
 * uncleCount is the length of `uncles`, and ummRoot is present (empty, as it is in practice) exactly where
 * RSKIP-UMM is active, unless the object names an `ummRoot` itself. Numbers are written back with rskj's
 * encodings (docs/protocol/encoding.md §2) through `BlockHeader.fromValues`; gasLimit, which rskj keeps raw,
 * is tried as rskj's builder writes it (`BigInteger.toByteArray()`) and then in its shortest form.
 */
import type {Chainspec} from "@xchain/chainspec";
import {BlockHeader, decodeRlpList, encodeSigned, HeaderField, type HeaderValues} from "@xchain/primitives";
import {
  bigIntToBytes,
  bytesToPrefixedHex,
  concatBytes,
  equalBytes,
  HexError,
  NodeError,
  parseData,
  parseQuantity,
} from "@xchain/utils";

/** Each reason a JSON block object does not give a verifiable header. */
export enum BlockJsonErrorCode {
  /** The answer is not a JSON object (null: the node has no block at that height). */
  NOT_AN_OBJECT = "BLOCK_JSON_NOT_AN_OBJECT",
  /** A header field is missing or not the hex it must be. */
  BAD_FIELD = "BLOCK_JSON_BAD_FIELD",
  /** The object is for another height than the one asked for. */
  WRONG_NUMBER = "BLOCK_JSON_WRONG_NUMBER",
  /** The block has no merged-mining proof (a pending block): there is nothing to verify. */
  UNSEALED = "BLOCK_JSON_UNSEALED",
  /** The header rebuilt from the fields does not hash to the object's `hash`: a field was altered, or is missing. */
  HASH_MISMATCH = "BLOCK_JSON_HASH_MISMATCH",
}

export type BlockJsonErrorType =
  | {code: BlockJsonErrorCode.NOT_AN_OBJECT; number: number; actualType: string}
  | {code: BlockJsonErrorCode.BAD_FIELD; number: number; field: string; reason: string}
  | {code: BlockJsonErrorCode.WRONG_NUMBER; number: number; actual: number}
  | {code: BlockJsonErrorCode.UNSEALED; number: number}
  | {code: BlockJsonErrorCode.HASH_MISMATCH; number: number; hash: string; rebuiltHash: string; fieldSet: string};

/** A JSON block object that cannot be turned into the header it claims to be; the message names block and field. */
export class BlockJsonError extends NodeError<BlockJsonErrorType> {
  /** `detail` says what is wrong; the message adds the block number. */
  constructor(
    type: BlockJsonErrorType,
    readonly detail: string,
  ) {
    super(type, `block ${type.number}: ${detail}`);
  }
}

/** The JSON names of the header fields, in the header's order (docs/protocol/header.md §1.1). */
const HASH_FIELDS = ["parentHash", "sha3Uncles", "stateRoot", "transactionsRoot", "receiptsRoot"] as const;

/**
 * The full header of the JSON block object of height `number`. Throws `BlockJsonError` when the object is
 * not a sealed block of that height, a field is malformed, or no rebuild hashes to the object's `hash`.
 */
export function headerFromBlockJson(json: unknown, number: number, chainspec: Chainspec): BlockHeader {
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    const actualType = json === null ? "null" : Array.isArray(json) ? "array" : typeof json;
    throw new BlockJsonError(
      {code: BlockJsonErrorCode.NOT_AN_OBJECT, number, actualType},
      actualType === "null"
        ? "the node answered null (it has no block at that height)"
        : `the answer is a JSON ${actualType}, not a block object`,
    );
  }
  const fields = new FieldReader(json as Record<string, unknown>, number);
  const actualNumber = Number(fields.quantity("number", 53));
  if (actualNumber !== number) {
    throw new BlockJsonError(
      {code: BlockJsonErrorCode.WRONG_NUMBER, number, actual: actualNumber},
      `the node answered block ${actualNumber}`,
    );
  }
  const hash = fields.data("hash", 32);
  const bitcoinHeader = fields.data("bitcoinMergedMiningHeader");
  if (bitcoinHeader.length === 0) {
    throw new BlockJsonError(
      {code: BlockJsonErrorCode.UNSEALED, number},
      "bitcoinMergedMiningHeader is empty: the block is not sealed (a pending block?)",
    );
  }
  const [parentHash, unclesHash, stateRoot, txTrieRoot, receiptTrieRoot] = HASH_FIELDS.map((f) => fields.data(f, 32));
  const ummRoot = fields.has("ummRoot")
    ? fields.data("ummRoot")
    : chainspec.hasUmmRoot(number)
      ? new Uint8Array(0)
      : undefined;
  const values: HeaderValues = {
    parentHash: parentHash as Uint8Array,
    unclesHash: unclesHash as Uint8Array,
    coinbase: fields.data("miner", 20),
    stateRoot: stateRoot as Uint8Array,
    txTrieRoot: txTrieRoot as Uint8Array,
    receiptTrieRoot: receiptTrieRoot as Uint8Array,
    logsBloom: fields.data("logsBloom", 256),
    difficulty: fields.quantity("difficulty"),
    number,
    gasLimit: fields.quantity("gasLimit"),
    gasUsed: fields.quantity("gasUsed", 63),
    timestamp: Number(fields.quantity("timestamp", 53)),
    extraData: fields.data("extraData"),
    paidFees: fields.quantity("paidFees"),
    minimumGasPrice: fields.quantity("minimumGasPrice"),
    uncleCount: fields.uncleCount(),
    ummRoot,
    mergedMining: {
      bitcoinHeader,
      merkleProof: fields.data("bitcoinMergedMiningMerkleProof"),
      coinbase: fields.data("bitcoinMergedMiningCoinbaseTransaction"),
    },
  };
  const rebuilt = BlockHeader.fromValues(values, chainspec);
  if (equalBytes(rebuilt.hash(), hash)) return rebuilt;
  const alternative = rawFieldAlternatives(rebuilt, values, chainspec).find((h) => equalBytes(h.hash(), hash));
  if (alternative) return alternative;
  const fieldSet = describeFieldSet(rebuilt);
  throw new BlockJsonError(
    {
      code: BlockJsonErrorCode.HASH_MISMATCH,
      number,
      hash: bytesToPrefixedHex(hash),
      rebuiltHash: bytesToPrefixedHex(rebuilt.hash()),
      fieldSet,
    },
    `the header rebuilt from the JSON fields (${fieldSet}) hashes to ${bytesToPrefixedHex(rebuilt.hash())}, ` +
      `not to the block's hash ${bytesToPrefixedHex(hash)}: a field was altered, or the header has ` +
      "fields the JSON does not show (a non-empty ummRoot; RSKIP-351 version 1/2 headers, testnet from 7,139,600)",
  );
}

/**
 * The same header with its raw fields written the other ways met (docs/protocol/encoding.md §2): gasLimit,
 * which rskj keeps raw, in its shortest form; gasLimit and minimumGasPrice as `BigInteger.toByteArray()`
 * writes them; and a genesis's difficulty with the leading zero bytes its loader keeps (regtest's genesis
 * writes 1 as `0000000001` and minimumGasPrice 0 as one zero byte).
 */
function rawFieldAlternatives(rebuilt: BlockHeader, values: HeaderValues, chainspec: Chainspec): BlockHeader[] {
  const distinct = (forms: Uint8Array[]) =>
    forms.filter((form, i) => forms.findIndex((other) => equalBytes(other, form)) === i);
  const numberForms = (field: HeaderField, value: bigint) =>
    distinct([rebuilt.rawField(field), bigIntToBytes(value), encodeSigned(value)]);
  const difficulty = rebuilt.rawField(HeaderField.difficulty);
  const difficultyForms =
    values.number === 0
      ? distinct(
          Array.from({length: 33 - difficulty.length}, (_, zeros) => concatBytes(new Uint8Array(zeros), difficulty)),
        )
      : [difficulty];
  const items = decodeRlpList(rebuilt.encode(), "header");
  const headers: BlockHeader[] = [];
  for (const d of difficultyForms) {
    for (const gasLimit of numberForms(HeaderField.gasLimit, values.gasLimit)) {
      for (const minimumGasPrice of numberForms(HeaderField.minimumGasPrice, values.minimumGasPrice)) {
        items[HeaderField.difficulty] = d;
        items[HeaderField.gasLimit] = gasLimit;
        items[HeaderField.minimumGasPrice] = minimumGasPrice;
        headers.push(BlockHeader.fromRlpItems(items, chainspec));
      }
    }
  }
  // The first is the rebuilt header itself, already tried.
  return headers.slice(1);
}

/** The fields a rebuilt header holds, for an error message. */
function describeFieldSet(header: BlockHeader): string {
  const parts = ["16 base fields with uncleCount = uncles.length"];
  if (header.ummRoot !== undefined) parts.push(header.ummRoot.length === 0 ? "empty ummRoot" : "ummRoot");
  parts.push(
    header.mergedMiningProofInHash
      ? "bitcoinMergedMiningHeader, merkle proof and coinbase (RSKIP-92 not active)"
      : "bitcoinMergedMiningHeader",
  );
  const hashed = 16 + (header.ummRoot !== undefined ? 1 : 0) + (header.mergedMiningProofInHash ? 3 : 1);
  return `${parts.join(", ")}; ${hashed} fields hashed`;
}

/** Reads the fields of one block object, turning each hex failure into a `BlockJsonError` that names the field. */
class FieldReader {
  constructor(
    private readonly json: Record<string, unknown>,
    private readonly number: number,
  ) {}

  /** True when the object gives the field a value (not absent, not null). */
  has(field: string): boolean {
    return this.json[field] !== undefined && this.json[field] !== null;
  }

  data(field: string, length?: number): Uint8Array {
    return this.read(field, (value) => parseData(value, field, length));
  }

  quantity(field: string, maxBits = 256): bigint {
    return this.read(field, (value) => parseQuantity(value, field, maxBits));
  }

  /** uncleCount is not in the JSON: it is the number of uncle hashes listed. */
  uncleCount(): number {
    const uncles = this.json.uncles;
    if (!Array.isArray(uncles)) this.fail("uncles", uncles === undefined ? "missing" : "not an array");
    return uncles.length;
  }

  private read<T>(field: string, parse: (value: unknown) => T): T {
    const value = this.json[field];
    if (value === undefined) this.fail(field, "missing");
    try {
      return parse(value);
    } catch (e) {
      if (e instanceof HexError) this.fail(field, e.message);
      throw e;
    }
  }

  private fail(field: string, reason: string): never {
    throw new BlockJsonError(
      {code: BlockJsonErrorCode.BAD_FIELD, number: this.number, field, reason},
      `field ${field} ${reason.startsWith(`${field}:`) ? reason.slice(field.length + 1).trim() : reason}`,
    );
  }
}
