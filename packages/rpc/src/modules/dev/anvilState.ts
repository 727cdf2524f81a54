/**
 * anvil's state dump (docs/rpc.md §4.10 "Snapshots, reset, dump and load"): `anvil_dumpState` answers
 * the hex of gzipped JSON of anvil's `SerializableState` and `anvil_loadState` takes it back (plain JSON
 * too, as anvil does). xchain writes and reads its `accounts` (`{address: {nonce, balance, code,
 * storage}}`); it writes `block` and `best_block_number` as null and the head's number (anvil then
 * loads the accounts alone) and empty `blocks` and `transactions`, and it ignores those fields and
 * `historical_states` when loading: anvil's blocks are not Rootstock blocks. `unlisted` counts what the
 * dump could not name (anvil ignores it).
 */
import {promisify} from "node:util";
import {gunzip as gunzipCallback, gzip as gzipCallback} from "node:zlib";
import type {DumpedAccount, StateDump} from "@xchain/state";
import {bytesToPrefixedHex, toQuantity} from "@xchain/utils";
import {type Codec, jsonType, objectMembers, ParamError} from "../../params/codec.ts";
import {address, data, word} from "../../params/hex.ts";

const gzip = promisify(gzipCallback);
const gunzip = promisify(gunzipCallback);

/** The anvil_dumpState answer: hex of the gzipped JSON. */
export async function encodeStateDump(dump: StateDump, headNumber: number): Promise<string> {
  const accounts: Record<string, unknown> = {};
  for (const {address, nonce, balance, code, storage} of dump.accounts) {
    accounts[bytesToPrefixedHex(address)] = {
      // anvil's nonce is a u64 written as a JSON number.
      nonce: Number(nonce),
      balance: toQuantity(balance),
      code: bytesToPrefixedHex(code),
      storage: Object.fromEntries(
        storage.map(([slot, value]) => [bytesToPrefixedHex(slot), bytesToPrefixedHex(value)]),
      ),
    };
  }
  const json = JSON.stringify({
    block: null,
    accounts,
    best_block_number: headNumber,
    blocks: [],
    transactions: [],
    unlisted: {accounts: dump.unnamedAccounts, slots: dump.unnamedSlots},
  });
  return bytesToPrefixedHex(await gzip(json));
}

const GZIP_MAGIC = [0x1f, 0x8b];

/**
 * The accounts of an anvil_loadState argument (`state`, already hex-decoded): gzipped JSON or plain JSON
 * of at most `maxJsonBytes`. A ParamError with the path of the first bad field for anything else.
 */
export async function decodeStateDump(bytes: Uint8Array, maxJsonBytes: number): Promise<DumpedAccount[]> {
  const gzipped = bytes[0] === GZIP_MAGIC[0] && bytes[1] === GZIP_MAGIC[1];
  let json: Uint8Array = bytes;
  if (gzipped) {
    try {
      json = await gunzip(bytes, {maxOutputLength: maxJsonBytes});
    } catch (e) {
      const tooLarge = (e as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE";
      throw new ParamError(
        "state",
        tooLarge
          ? `the state inflates past ${maxJsonBytes} bytes of JSON (miner.dumpStateMaxBytes)`
          : `not valid gzip data: ${(e as Error).message}`,
      );
    }
  } else if (json.length > maxJsonBytes) {
    throw new ParamError("state", `the state passes ${maxJsonBytes} bytes of JSON (miner.dumpStateMaxBytes)`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder("utf-8", {fatal: true}).decode(json));
  } catch (e) {
    throw new ParamError("state", `not gzipped JSON nor JSON: ${(e as Error).message}`);
  }
  const accounts = objectMembers(objectMembers(parsed, "state").accounts, "state.accounts");
  return Object.entries(accounts).map(([key, value]) => {
    const path = `state.accounts.${key}`;
    return {address: address(key, `${path} (address)`), ...accountRecord(value, path)};
  });
}

/** One `SerializableAccountRecord`: nonce, balance, code and storage, all required as anvil's are. */
function accountRecord(value: unknown, path: string): Omit<DumpedAccount, "address"> {
  const members = objectMembers(value, path);
  const field = <T>(name: string, codec: Codec<T>): T => {
    if (members[name] === undefined) throw new ParamError(`${path}.${name}`, "missing");
    return codec(members[name], `${path}.${name}`);
  };
  return {
    nonce: field("nonce", nonce),
    balance: field("balance", u256),
    code: field("code", data),
    storage: Object.entries(field("storage", objectMembers)).map(([slot, v]) => [
      word(slot, `${path}.storage.${slot} (slot)`),
      word(v, `${path}.storage.${slot}`),
    ]),
  };
}

const U64_MAX = (1n << 64n) - 1n;

/** anvil's u64 nonce: a JSON integer (what anvil writes) or a hex QUANTITY. */
const nonce: Codec<bigint> = (value, path) => {
  const n =
    typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? BigInt(value) : hexNumber(value, path);
  if (n > U64_MAX) throw new ParamError(path, "above 2^64-1");
  return n;
};

/** A U256 as alloy writes it: 0x and 1 to 64 hex digits. */
const u256: Codec<bigint> = (value, path) => hexNumber(value, path);

function hexNumber(value: unknown, path: string): bigint {
  if (typeof value !== "string" || !/^0x[0-9a-fA-F]{1,64}$/.test(value)) {
    throw new ParamError(path, `expected a string of 0x and 1 to 64 hex digits, got ${jsonType(value)}`);
  }
  return BigInt(value);
}
