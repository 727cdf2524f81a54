/**
 * Log filter objects (docs/rpc.md §4.5): eth_getLogs and eth_newFilter take a block range or a block
 * hash (never both; the node reference spells it `blockhash`), eth_subscribe("logs") only
 * addresses and topics. Topics: at most 4 positions, each null (any), a DATA32 or an array of them.
 */

import {dataSchema, type JsonSchema, objectSchema} from "../jsonrpc/jsonSchema.ts";
import {type BlockNumberOrTag, blockNumberOrTag} from "./blockRef.ts";
import {type Codec, jsonType, objectMembers, oneOrMany, optionalMember, ParamError, withSchema} from "./codec.ts";
import {address, hash} from "./hex.ts";

/** Topics by position: null for any, one topic, or a set (any of them). */
export type TopicFilter = (Uint8Array | Uint8Array[] | null)[];

/** What a log must match, wherever it comes from. */
export interface LogMatchRequest {
  /** Any of these emitters; undefined for any. */
  addresses?: Uint8Array[];
  topics?: TopicFilter;
}

/** A log query: a block hash or a range, plus what to match. */
export type LogFilterRequest = LogMatchRequest &
  ({kind: "hash"; blockHash: Uint8Array} | {kind: "range"; fromBlock?: BlockNumberOrTag; toBlock?: BlockNumberOrTag});

const MAX_TOPICS = 4;

const TOPIC_SCHEMA = dataSchema(32);
const MATCH_PROPERTIES: Record<string, JsonSchema> = {
  address: oneOrMany(address).schema ?? {},
  topics: {
    type: "array",
    maxItems: MAX_TOPICS,
    items: {oneOf: [{type: "null"}, TOPIC_SCHEMA, {type: "array", items: TOPIC_SCHEMA}]},
  },
};
const FILTER_SCHEMA = objectSchema("log filter", {
  fromBlock: blockNumberOrTag.schema ?? {},
  toBlock: blockNumberOrTag.schema ?? {},
  blockHash: TOPIC_SCHEMA,
  ...MATCH_PROPERTIES,
});

const topics: Codec<TopicFilter> = (value, path) => {
  if (!Array.isArray(value)) throw new ParamError(path, `expected an array, got ${jsonType(value)}`);
  if (value.length > MAX_TOPICS) throw new ParamError(path, `at most ${MAX_TOPICS} topic positions`);
  return value.map((position, i) => {
    if (position === null) return null;
    return Array.isArray(position)
      ? position.map((t, j) => hash(t, `${path}[${i}][${j}]`))
      : hash(position, `${path}[${i}]`);
  });
};

function matchPart(members: Record<string, unknown>, path: string): LogMatchRequest {
  const request: LogMatchRequest = {};
  const addresses = optionalMember(members, "address", oneOrMany(address), path);
  const topicFilter = optionalMember(members, "topics", topics, path);
  if (addresses) request.addresses = addresses;
  if (topicFilter) request.topics = topicFilter;
  return request;
}

/** The filter object of eth_getLogs and eth_newFilter. */
export const logFilterRequest: Codec<LogFilterRequest> = withSchema(FILTER_SCHEMA, (value, path) => {
  const members = objectMembers(value, path);
  const hashKey = members.blockHash !== undefined ? "blockHash" : "blockhash";
  const blockHash = optionalMember(members, hashKey, hash, path);
  const fromBlock = optionalMember(members, "fromBlock", blockNumberOrTag, path);
  const toBlock = optionalMember(members, "toBlock", blockNumberOrTag, path);
  const match = matchPart(members, path);
  if (blockHash) {
    if (fromBlock || toBlock) throw new ParamError(path, "blockHash excludes fromBlock and toBlock");
    return {...match, kind: "hash", blockHash};
  }
  const range: LogFilterRequest = {...match, kind: "range"};
  if (fromBlock) range.fromBlock = fromBlock;
  if (toBlock) range.toBlock = toBlock;
  return range;
});

/** The filter of eth_subscribe("logs"): addresses and topics only. */
export const logMatchRequest: Codec<LogMatchRequest> = withSchema(
  objectSchema("log match", MATCH_PROPERTIES),
  (value, path) => matchPart(objectMembers(value, path), path),
);
