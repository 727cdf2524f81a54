/**
 * The `db` namespace (docs/rpc.md §4.7): Ethereum's original key-value store for dapps, kept in the
 * node's database (`DappDb`). rskj registers these names and answers null to all of them; xchain
 * stores and answers, as geth 1.x did, within the bounds of `rpc.db`.
 */
import {toData, utf8ToBytes} from "@xchain/utils";
import type {DappStore} from "../deps.ts";
import {MethodUnavailableError} from "../jsonrpc/errors.ts";
import {STRING_SCHEMA} from "../jsonrpc/jsonSchema.ts";
import type {RpcMethod} from "../jsonrpc/registry.ts";
import type {ModuleDeps} from "../moduleDeps.ts";
import {type Codec, jsonType, ParamError, withSchema} from "../params/codec.ts";
import {data} from "../params/hex.ts";
import {method, param} from "../params/method.ts";

/** A surrogate that is not half of a pair (a `u` regex reads pairs as one code point). */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * A JSON string that UTF-8 encodes to what it is: a lone surrogate (`"\ud800"`) would be stored as
 * U+FFFD and read back as another string.
 */
export const text: Codec<string> = withSchema(STRING_SCHEMA, (value, path) => {
  if (typeof value !== "string") throw new ParamError(path, `expected a string, got ${jsonType(value)}`);
  if (LONE_SURROGATE.test(value)) throw new ParamError(path, "not valid Unicode: the string holds a lone surrogate");
  return value;
});

/** A database name or key: `text`, not empty (geth's "cannot be blank"). */
export const name: Codec<string> = withSchema({...STRING_SCHEMA, minLength: 1}, (value, path) => {
  const decoded = text(value, path);
  if (decoded === "") throw new ParamError(path, "must not be empty");
  return decoded;
});

/** The store, or -32601 "not available" on a node built without one. */
function requireDappDb(dappDb: DappStore | undefined): DappStore {
  if (!dappDb) throw new MethodUnavailableError("this node has no db_* store");
  return dappDb;
}

/**
 * db_*: a write answers `true`, a read the stored value or `null` for a missing key (docs/rpc.md §7
 * rule 2, where geth 1.x answered -32603 `leveldb: not found`). Strings and hex share one key space: a
 * string reads back with db_getHex as its UTF-8 bytes.
 */
export function dbMethods({dappDb}: Pick<ModuleDeps, "dappDb">): Record<string, RpcMethod> {
  const database = param("database", name);
  const key = param("key", name);
  return {
    /** Handler for `db_putString` */
    putString: method([database, key, param("value", text)], async (db, k, value) => {
      await requireDappDb(dappDb).put(db, k, utf8ToBytes(value));
      return true;
    }),
    /** Handler for `db_getString` */
    getString: method([database, key], async (db, k) => (await requireDappDb(dappDb).getText(db, k)) ?? null),
    /** Handler for `db_putHex` */
    putHex: method([database, key, param("value", data)], async (db, k, value) => {
      await requireDappDb(dappDb).put(db, k, value);
      return true;
    }),
    /** Handler for `db_getHex` */
    getHex: method([database, key], async (db, k) => {
      const value = await requireDappDb(dappDb).get(db, k);
      return value === undefined ? null : toData(value);
    }),
  };
}
