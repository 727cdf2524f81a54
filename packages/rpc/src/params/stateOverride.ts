/**
 * eth_call's third parameter, the state override (docs/protocol/state-override.md §2): an object
 * mapping addresses to the balance, nonce, code, whole storage (`state`) or storage patch
 * (`stateDiff`) the call sees. Precompiled contracts and `movePrecompileToAddress` are refused (§4).
 */
import {type AccountOverride, isPrecompiledAddress, type StateOverride} from "@xchain/execution";
import {dataSchema, objectSchema, QUANTITY_SCHEMA} from "../jsonrpc/jsonSchema.ts";
import {type Codec, objectMembers, optionalMember, ParamError, withSchema} from "./codec.ts";
import {address, data, gasQuantity, quantity, word} from "./hex.ts";

const FIELDS = new Set(["balance", "nonce", "code", "state", "stateDiff", "movePrecompileToAddress"]);

/** A storage map `{slot: value}`, each a word of at most 32 bytes, as [slot, value] pairs. */
const storageMap: Codec<[Uint8Array, Uint8Array][]> = (value, path) =>
  Object.entries(objectMembers(value, path)).map(([slot, v]) => [
    word(slot, `${path}[${slot}]`),
    word(v, `${path}.${slot}`),
  ]);

/** A nonce: a QUANTITY below 2^63, as rskj bounds it. */
const nonce: Codec<bigint> = (value, path) => {
  const n = gasQuantity(value, path);
  if (n >= 1n << 63n) throw new ParamError(path, "nonce above 2^63-1");
  return n;
};

function accountOverride(value: unknown, path: string, account: Uint8Array): AccountOverride {
  const members = objectMembers(value, path);
  for (const key of Object.keys(members)) {
    if (!FIELDS.has(key)) throw new ParamError(`${path}.${key}`, "unknown account override field");
  }
  if (members.movePrecompileToAddress !== undefined && members.movePrecompileToAddress !== null) {
    throw new ParamError(`${path}.movePrecompileToAddress`, "moving a precompiled contract is not supported");
  }
  const state = optionalMember(members, "state", storageMap, path);
  const stateDiff = optionalMember(members, "stateDiff", storageMap, path);
  if (state !== undefined && stateDiff !== undefined) {
    throw new ParamError(path, "AccountOverride.stateDiff and AccountOverride.state cannot be set at the same time");
  }
  const override = {
    address: account,
    balance: optionalMember(members, "balance", quantity, path),
    nonce: optionalMember(members, "nonce", nonce, path),
    code: optionalMember(members, "code", data, path),
    state,
    stateDiff,
  };
  const changes = [override.balance, override.nonce, override.code, state, stateDiff].some((v) => v !== undefined);
  if (changes && isPrecompiledAddress(account)) {
    throw new ParamError(path, "Precompiled contracts can not be overridden");
  }
  return override;
}

const STORAGE_SCHEMA = {type: "object", additionalProperties: word.schema ?? {}};
const OVERRIDE_SCHEMA = {
  title: "state override",
  type: ["object", "null"],
  additionalProperties: objectSchema(
    "account override",
    {
      balance: QUANTITY_SCHEMA,
      nonce: QUANTITY_SCHEMA,
      code: dataSchema(),
      state: STORAGE_SCHEMA,
      stateDiff: STORAGE_SCHEMA,
    },
    true,
  ),
};

/** The state override codec; more than `maxAccounts` accounts is a ParamError. `null` reads as none. */
export function stateOverride(maxAccounts: number): Codec<StateOverride> {
  return withSchema(OVERRIDE_SCHEMA, (value, path) => {
    if (value === null) return [];
    const entries = Object.entries(objectMembers(value, path));
    if (entries.length > maxAccounts) {
      throw new ParamError(path, `${entries.length} accounts overridden, at most ${maxAccounts} allowed`);
    }
    return entries.map(([key, account]) => {
      const at = `${path}[${key}]`;
      return accountOverride(account, at, address(key, at));
    });
  });
}
