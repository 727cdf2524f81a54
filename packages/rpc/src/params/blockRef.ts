/**
 * Block references (docs/rpc.md §4.3): a hex number, a tag (`latest`, `earliest`, `pending`, `safe`,
 * `finalized`), a block
 * hash where the method allows one, and the node reference's map `{blockHash}` / `{blockNumber}`
 * (EIP-1898, with `requireCanonical`).
 */
import {toData, toQuantity} from "@xchain/utils";
import {BOOLEAN_SCHEMA, dataSchema, type JsonSchema, objectSchema, QUANTITY_SCHEMA} from "../jsonrpc/jsonSchema.ts";
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
const BLOCK_REF_SCHEMA: JsonSchema = {
  title: "block reference",
  oneOf: [
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

/** How a reference reads in messages (`Block 0x10 not found`). */
export function describeBlockRef(ref: BlockRef): string {
  if (ref.kind === "tag") return ref.tag;
  return ref.kind === "number" ? toQuantity(ref.number) : toData(ref.hash);
}
