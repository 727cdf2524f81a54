/**
 * Block references (docs/rpc.md §4.3): a hex number, a tag (`latest`, `earliest`, `pending`, `safe`,
 * `finalized`), a block
 * hash where the method allows one, and the node reference's map `{blockHash}` / `{blockNumber}`
 * (EIP-1898, with `requireCanonical`).
 */
import {toData, toQuantity} from "@xchain/utils";
import {BOOLEAN_SCHEMA, dataSchema, type JsonSchema, objectSchema, QUANTITY_SCHEMA} from "../jsonrpc/jsonSchema.ts";
import type {RpcOptions} from "../options.ts";
import {bool, type Codec, jsonType, objectMembers, optionalMember, ParamError, withSchema} from "./codec.ts";
import {hash, quantityNumber} from "./hex.ts";

/** The block tags, as the JSON-RPC spec and geth name them. */
export const BLOCK_TAGS = ["latest", "earliest", "pending", "safe", "finalized"] as const;

/** A block tag; `safe` and `finalized` are confirmation depths below the head (docs/rpc.md §4.3). */
export type BlockTag = (typeof BLOCK_TAGS)[number];

/** A block tag. */
export const BLOCK_TAG_SCHEMA: JsonSchema = {title: "block tag", type: "string", enum: [...BLOCK_TAGS]};

/** A block by canonical number or tag. */
export type BlockNumberOrTag = {kind: "number"; number: number} | {kind: "tag"; tag: BlockTag};

/** Any block reference. */
export type BlockRef = BlockNumberOrTag | {kind: "hash"; hash: Uint8Array; requireCanonical: boolean};

/** The default block of the methods where it is optional. */
export const LATEST: BlockNumberOrTag = {kind: "tag", tag: "latest"};

/** The default block of eth_estimateGas: the next block, where the transaction will run (docs/rpc.md §4.4). */
export const PENDING: BlockNumberOrTag = {kind: "tag", tag: "pending"};

const HASH_LENGTH = 66;

const NUMBER_OR_TAG_SCHEMA: JsonSchema = {title: "block number or tag", oneOf: [QUANTITY_SCHEMA, BLOCK_TAG_SCHEMA]};
const HASH_SCHEMA = dataSchema(32);
// anyOf: a block hash not starting with a zero digit is also QUANTITY-shaped (the codec reads a
// 32-byte string as a hash); a oneOf would refuse it.
const BLOCK_REF_SCHEMA: JsonSchema = {
  title: "block reference",
  anyOf: [
    QUANTITY_SCHEMA,
    BLOCK_TAG_SCHEMA,
    HASH_SCHEMA,
    {...objectSchema("EIP-1898 by number", {blockNumber: NUMBER_OR_TAG_SCHEMA}, true), required: ["blockNumber"]},
    {
      ...objectSchema("EIP-1898 by hash", {blockHash: HASH_SCHEMA, requireCanonical: BOOLEAN_SCHEMA}, true),
      required: ["blockHash"],
    },
  ],
};

/** A hex block number or a tag. */
export const blockNumberOrTag: Codec<BlockNumberOrTag> = withSchema(NUMBER_OR_TAG_SCHEMA, (value, path) => {
  if (typeof value !== "string") {
    throw new ParamError(path, `expected a block number or tag, got ${jsonType(value)}`);
  }
  if ((BLOCK_TAGS as readonly string[]).includes(value)) return {kind: "tag", tag: value as BlockTag};
  if (!value.startsWith("0x")) throw new ParamError(path, `invalid block identifier "${value}"`);
  return {kind: "number", number: quantityNumber(value, path)};
});

/** A hex block number, a tag, a block hash, or `{blockHash, requireCanonical?}` / `{blockNumber}`. */
export const blockRef: Codec<BlockRef> = withSchema(BLOCK_REF_SCHEMA, (value, path) => {
  if (typeof value === "string") {
    return value.length === HASH_LENGTH && value.startsWith("0x")
      ? {kind: "hash", hash: hash(value, path), requireCanonical: false}
      : blockNumberOrTag(value, path);
  }
  const members = objectMembers(value, path);
  const hasHash = members.blockHash !== undefined;
  if (hasHash === (members.blockNumber !== undefined)) {
    throw new ParamError(path, "expected exactly one of blockHash and blockNumber");
  }
  if (!hasHash) return blockNumberOrTag(members.blockNumber, `${path}.blockNumber`);
  return {
    kind: "hash",
    hash: hash(members.blockHash, `${path}.blockHash`),
    requireCanonical: optionalMember(members, "requireCanonical", bool, path) ?? false,
  };
});

/** The confirmations `safe` and `finalized` stand for (`rpc.safeDepth`, `rpc.finalizedDepth`, docs/rpc.md §4.3). */
export type TagDepths = Pick<RpcOptions, "safeDepth" | "finalizedDepth">;

/** Whether `ref` is a tag that reads as the head: `latest`, and `pending` where no pending block is built. */
export function isHeadTag(ref: BlockRef): boolean {
  return ref.kind === "tag" && (ref.tag === "latest" || ref.tag === "pending");
}

/**
 * The height a number or tag names with the head at `head` (a number may be above it): `safe` and
 * `finalized` are their depth below the head, genesis on a shorter chain.
 */
export function heightAt(head: number, ref: BlockNumberOrTag, depths: TagDepths): number {
  if (ref.kind === "number") return ref.number;
  switch (ref.tag) {
    case "earliest":
      return 0;
    case "safe":
      return Math.max(0, head - depths.safeDepth);
    case "finalized":
      return Math.max(0, head - depths.finalizedDepth);
    default:
      return head;
  }
}

/** How a reference reads in messages (`Block 0x10 not found`). */
export function describeBlockRef(ref: BlockRef): string {
  if (ref.kind === "tag") return ref.tag;
  return ref.kind === "number" ? toQuantity(ref.number) : toData(ref.hash);
}
