/**
 * The parameters of `trace_block` and `trace_filter` (docs/protocol/traces.md §6): rskj's messages
 * where it has one, and -32602 for every malformed value (where rskj answers -32603).
 */
import {HexError} from "@xchain/utils";
import {RpcError} from "../jsonrpc/errors.ts";
import {dataSchema, objectSchema, QUANTITY_SCHEMA} from "../jsonrpc/jsonSchema.ts";
import type {BlockNumberOrTag} from "./blockRef.ts";
import {BLOCK_TAG_SCHEMA, BLOCK_TAGS, blockNumberOrTag} from "./blockRef.ts";
import {type Codec, jsonType, oneOrMany, optionalMember, ParamError, withSchema} from "./codec.ts";
import {address, hash, quantityNumber} from "./hex.ts";

/** trace_block's block: a number or tag, or the hash of any stored block. */
export type TraceBlockRef = BlockNumberOrTag | {kind: "hash"; hash: Uint8Array};

/** A decoded trace_filter request; absent bounds take their defaults (docs/protocol/traces.md §6.3). */
export interface TraceFilterRequest {
  fromBlock: BlockNumberOrTag;
  toBlock: BlockNumberOrTag;
  /** Transactions from any of these senders; undefined for any. */
  fromAddress?: Uint8Array[];
  /** Transactions to any of these recipients; undefined for any. */
  toAddress?: Uint8Array[];
  after: number;
  count: number;
}

/** rskj reads an argument shorter than this as a number or tag, and a longer one as a block hash. */
const HASH_THRESHOLD = 20;

const TRACE_BLOCK_SCHEMA = {
  title: "block number, tag or hash",
  // anyOf: a hash is also QUANTITY-shaped when it does not start with a zero digit.
  anyOf: [QUANTITY_SCHEMA, BLOCK_TAG_SCHEMA, dataSchema(32)],
};

/** trace_block's argument; a tag in any case. */
export const traceBlockRef: Codec<TraceBlockRef> = withSchema(TRACE_BLOCK_SCHEMA, (value, path) => {
  if (typeof value !== "string")
    throw new ParamError(path, `expected a block number, tag or hash, got ${jsonType(value)}`);
  if (value.length >= HASH_THRESHOLD) return {kind: "hash", hash: hash(value, path)};
  const tag = BLOCK_TAGS.find((t) => t === value.toLowerCase());
  if (tag) return {kind: "tag", tag};
  try {
    return {kind: "number", number: quantityNumber(value, path)};
  } catch (e) {
    if (e instanceof HexError) throw new ParamError(path, `invalid blocknumber ${value}`);
    throw e;
  }
});

const KNOWN_KEYS = ["fromBlock", "toBlock", "fromAddress", "toAddress", "after", "count"] as const;

/** A non-negative integer given as a JSON number or a decimal string; `what` names it in messages. */
function traceCount(value: unknown, path: string, what: "After" | "Count", max: number): number {
  const number = typeof value === "string" && /^-?\d+$/.test(value) ? Number(value) : value;
  if (typeof number !== "number" || !Number.isSafeInteger(number)) {
    throw new ParamError(path, "expected an integer (a JSON number or a decimal string)");
  }
  if (number < 0) throw RpcError.invalidParams(`${what} value cannot be negative.`);
  if (number > max) throw RpcError.invalidParams(`${what} value too big. Maximum ${max} traces allowed.`);
  return number;
}

const COUNT_SCHEMA = {
  oneOf: [
    {type: "integer", minimum: 0},
    {type: "string", pattern: "^\\d+$"},
  ],
};
const FILTER_SCHEMA = objectSchema(
  "trace filter",
  {
    fromBlock: blockNumberOrTag.schema ?? {},
    toBlock: blockNumberOrTag.schema ?? {},
    fromAddress: oneOrMany(address).schema ?? {},
    toAddress: oneOrMany(address).schema ?? {},
    after: COUNT_SCHEMA,
    count: COUNT_SCHEMA,
  },
  true,
);

/** trace_filter's object, with `maxTraces` (`rpc.trace.maxTracesPerRequest`) as default and maximum of `count`. */
export function traceFilterRequest(maxTraces: number): Codec<TraceFilterRequest> {
  return withSchema(FILTER_SCHEMA, (value, path) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw RpcError.invalidParams("Invalid trace_filter parameters.");
    }
    const members = value as Record<string, unknown>;
    const unknown = Object.keys(members).find((key) => !(KNOWN_KEYS as readonly string[]).includes(key));
    if (unknown !== undefined) {
      throw RpcError.invalidParams(
        `Unrecognized field "${unknown}" (${KNOWN_KEYS.length} known properties: [${KNOWN_KEYS.map((k) => `"${k}"`).join(", ")}])`,
      );
    }
    const count = (key: "after" | "count", what: "After" | "Count", fallback: number) =>
      optionalMember(members, key, (v, p) => traceCount(v, p, what, maxTraces), path) ?? fallback;
    const request: TraceFilterRequest = {
      fromBlock: optionalMember(members, "fromBlock", blockNumberOrTag, path) ?? {kind: "tag", tag: "earliest"},
      toBlock: optionalMember(members, "toBlock", blockNumberOrTag, path) ?? {kind: "tag", tag: "latest"},
      after: count("after", "After", 0),
      count: count("count", "Count", maxTraces),
    };
    const fromAddress = optionalMember(members, "fromAddress", oneOrMany(address), path);
    const toAddress = optionalMember(members, "toAddress", oneOrMany(address), path);
    if (fromAddress) request.fromAddress = fromAddress;
    if (toAddress) request.toAddress = toAddress;
    return request;
  });
}
