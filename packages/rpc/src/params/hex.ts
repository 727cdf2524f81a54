/** Codecs of the JSON-RPC hex types (docs/rpc.md §4) on the strict utils codecs: DATA20, DATA32, DATA, QUANTITY. */
import {bigIntToFixedBytes, hexToBytesOrNull, parseData, parseQuantity, parseQuantityNumber} from "@xchain/utils";
import {dataSchema, type JsonSchema, QUANTITY_SCHEMA} from "../jsonrpc/jsonSchema.ts";
import {type Codec, jsonType, ParamError, withSchema} from "./codec.ts";

/** DATA20. */
export const address: Codec<Uint8Array> = withSchema(dataSchema(20), (value, path) => parseData(value, path, 20));

/** DATA32. */
export const hash: Codec<Uint8Array> = withSchema(dataSchema(32), (value, path) => parseData(value, path, 32));

/** DATA of any length. */
export const data: Codec<Uint8Array> = withSchema(dataSchema(), (value, path) => parseData(value, path));

/** DATA8 (eth_submitWork's nonce). */
export const data8: Codec<Uint8Array> = withSchema(dataSchema(8), (value, path) => parseData(value, path, 8));

/** QUANTITY of at most 256 bits. */
export const quantity: Codec<bigint> = withSchema(QUANTITY_SCHEMA, (value, path) => parseQuantity(value, path));

/** QUANTITY of at most 64 bits (gas). */
export const gasQuantity: Codec<bigint> = withSchema(QUANTITY_SCHEMA, (value, path) => parseQuantity(value, path, 64));

/** QUANTITY that fits a safe integer (block numbers, indexes). */
export const quantityNumber: Codec<number> = withSchema(QUANTITY_SCHEMA, (value, path) =>
  parseQuantityNumber(value, path),
);

const HEX = /^0x[0-9a-fA-F]{1,64}$/;
const WORD_SCHEMA: JsonSchema = {title: "word", type: "string", pattern: HEX.source};

/**
 * A 32-byte word given as `0x` and 1 to 64 hex digits, leading zeros allowed (storage slots, which
 * tools send zero-padded; eth_submitHashrate's rate); returned as 32 bytes.
 */
export const word: Codec<Uint8Array> = withSchema(WORD_SCHEMA, (value, path) => {
  if (typeof value !== "string") throw new ParamError(path, `expected a hex string, got ${jsonType(value)}`);
  if (!HEX.test(value)) throw new ParamError(path, "expected 0x and 1 to 64 hex digits");
  return bigIntToFixedBytes(BigInt(value), 32);
});

const LOOSE_HEX_SCHEMA: JsonSchema = {type: "string", pattern: "^(0x)?([0-9a-fA-F]{2})*$"};

/**
 * Hex bytes with or without `0x` (mnr_* parameters: rskj takes them bare, xchain accepts both,
 * docs/protocol/README.md §2).
 */
export const looseHex: Codec<Uint8Array> = withSchema(LOOSE_HEX_SCHEMA, (value, path) => {
  if (typeof value !== "string") throw new ParamError(path, `expected a hex string, got ${jsonType(value)}`);
  const digits = value.startsWith("0x") ? value.slice(2) : value;
  const bytes = hexToBytesOrNull(digits);
  if (bytes === null) throw new ParamError(path, "expected an even number of hex digits, with or without 0x");
  return bytes;
});

const COUNT_SCHEMA: JsonSchema = {oneOf: [QUANTITY_SCHEMA, {type: "integer", minimum: 0}]};

/** A non-negative integer as a QUANTITY or a JSON number (evm_*: rskj takes hex, ganache and Hardhat numbers). */
export const nonNegativeInteger: Codec<number> = withSchema(COUNT_SCHEMA, (value, path) => {
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value) || value < 0) throw new ParamError(path, "expected a non-negative integer");
    return value;
  }
  return parseQuantityNumber(value, path);
});

/** A non-negative integer of at most 256 bits as a QUANTITY or a JSON safe integer (anvil's and Hardhat's amounts). */
export const nonNegativeBigInt: Codec<bigint> = withSchema(COUNT_SCHEMA, (value, path) =>
  typeof value === "number" ? BigInt(nonNegativeInteger(value, path)) : parseQuantity(value, path),
);
