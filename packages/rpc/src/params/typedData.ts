/**
 * The typed data of eth_signTypedData_v4 (EIP-712, docs/rpc.md §4.4): an object or its JSON text
 * with `types`, `primaryType`, `domain` and `message`. Everything a hash would silently get wrong is
 * refused here with its path: a struct name that is a Solidity type, a field of an unknown type or a
 * bare `int`/`uint`, a duplicate field, a type that refers back to itself (EIP-712's encoding would
 * never end; ethers refuses such types too), an unknown primary type, a missing field, a value that
 * does not fit its type (out of range, a wrong length, not hex), an array of the wrong length.
 * Values come out normalized for the hasher: integers as bigint, addresses and bytes as lower-case
 * hex. Without an `EIP712Domain` type the domain's type is the fields it has, in EIP-712's order
 * (what viem and ethers send). Fields of the message that no type declares are ignored, as wallets
 * do; a domain field `EIP712Domain` does not declare is refused, since the signer would believe it
 * signed it. Sizes are bounded so that hashing stays cheap: `MAX_FIELDS` fields in all the types, type
 * names of `MAX_TYPE_LENGTH` characters, `MAX_STRUCTS` struct values in the domain and message.
 */
import {jsonType, ParamError, withSchema} from "./codec.ts";

/** One field of a struct type. */
export interface TypedField {
  name: string;
  type: string;
}

/** Typed data, checked and normalized. */
export interface TypedData {
  types: Record<string, TypedField[]>;
  primaryType: string;
  domain: Record<string, unknown>;
  message: Record<string, unknown>;
}

const DOMAIN = "EIP712Domain";
/** EIP-712's domain fields, in its order. */
const DOMAIN_FIELDS: readonly TypedField[] = [
  {name: "name", type: "string"},
  {name: "version", type: "string"},
  {name: "chainId", type: "uint256"},
  {name: "verifyingContract", type: "address"},
  {name: "salt", type: "bytes32"},
];
/** Fields of all the struct types together. */
export const MAX_FIELDS = 1_024;
/** Characters of a type (`Person[2][]`) or field name. */
export const MAX_TYPE_LENGTH = 256;
/** Struct values in the domain and the message together (each costs its type's encoding to hash). */
export const MAX_STRUCTS = 10_000;
const STRUCT_NAME = /^[A-Za-z0-9_$:]+$/;
const SOLIDITY_NAME = /^(address|bool|string|bytes\d*|u?int\d*)$/;
const INTEGER = /^(u?)int(\d+)$/;
const FIXED_BYTES = /^bytes(\d+)$/;
const ARRAY_SUFFIX = /^(.*)\[(\d*)\]$/;
const HEX = /^0x([0-9a-fA-F]{2})*$/;
const DECIMAL = /^-?\d+$/;
const SIGNED_HEX = /^-?0x[0-9a-fA-F]+$/;

/** The codec of the typed-data parameter. */
export const typedData = withSchema({type: ["object", "string"]}, (value: unknown, path: string): TypedData => {
  let raw = value;
  if (typeof raw === "string") {
    try {
      raw = JSON.parse(raw);
    } catch {
      throw new ParamError(path, "not valid JSON");
    }
  }
  const top = object(raw, path);
  const types = structTypes(top.types, `${path}.types`);
  const primaryType = top.primaryType;
  if (typeof primaryType !== "string") throw new ParamError(`${path}.primaryType`, "want a type name");
  if (!Object.hasOwn(types, primaryType)) {
    throw new ParamError(`${path}.primaryType`, `${primaryType} is not among the types`);
  }
  const domainValue = object(top.domain, `${path}.domain`);
  const domainType =
    types[DOMAIN] ??
    DOMAIN_FIELDS.filter((field) => Object.hasOwn(domainValue, field.name) && domainValue[field.name] != null);
  const declared = new Set(domainType.map((field) => field.name));
  for (const name of Object.keys(domainValue)) {
    if (!declared.has(name) && domainValue[name] != null) {
      throw new ParamError(`${path}.domain.${name}`, `not a field of ${DOMAIN}`);
    }
  }
  const withDomain = record<TypedField[]>();
  Object.assign(withDomain, types, {[DOMAIN]: domainType});
  const budget = {structs: MAX_STRUCTS};
  const domain = structValue(withDomain, DOMAIN, domainValue, `${path}.domain`, budget);
  const message =
    primaryType === DOMAIN ? {} : structValue(withDomain, primaryType, top.message, `${path}.message`, budget);
  return {types: withDomain, primaryType, domain, message};
});

/** `types`: struct names to their fields, every field type known, no type that contains itself. */
function structTypes(value: unknown, path: string): Record<string, TypedField[]> {
  const types = record<TypedField[]>();
  let fieldCount = 0;
  for (const [name, fields] of Object.entries(object(value, path))) {
    if (!STRUCT_NAME.test(name) || SOLIDITY_NAME.test(name)) {
      throw new ParamError(`${path}.${name}`, "a struct name is letters, digits, _, $ or : and no Solidity type");
    }
    if (!Array.isArray(fields))
      throw new ParamError(`${path}.${name}`, `want an array of fields, got ${jsonType(fields)}`);
    fieldCount += fields.length;
    if (fieldCount > MAX_FIELDS) throw new ParamError(path, `more than ${MAX_FIELDS} fields in all`);
    const seen = new Set<string>();
    types[name] = fields.map((field, i) => {
      const {name: fieldName, type} = object(field, `${path}.${name}[${i}]`);
      if (typeof fieldName !== "string" || typeof type !== "string") {
        throw new ParamError(`${path}.${name}[${i}]`, "want {name, type} strings");
      }
      if (fieldName.length > MAX_TYPE_LENGTH || type.length > MAX_TYPE_LENGTH) {
        throw new ParamError(`${path}.${name}[${i}]`, `a name or type longer than ${MAX_TYPE_LENGTH} characters`);
      }
      if (seen.has(fieldName)) throw new ParamError(`${path}.${name}[${i}]`, `duplicate field ${fieldName}`);
      seen.add(fieldName);
      return {name: fieldName, type};
    });
  }
  for (const [name, fields] of Object.entries(types)) {
    for (const [i, field] of fields.entries()) {
      const base = baseType(field.type);
      if (!Object.hasOwn(types, base) && !isAtomic(base)) {
        throw new ParamError(`${path}.${name}[${i}]`, `unknown type ${field.type}`);
      }
    }
  }
  const done = new Set<string>();
  for (const name of Object.keys(types)) refuseCycle(types, name, [], done, path);
  return types;
}

/**
 * Throws when `name` reaches itself through its fields (`trail`: the structs on the way to it); `done`
 * holds the types already known to reach no cycle, so each type is walked once.
 */
function refuseCycle(
  types: Record<string, TypedField[]>,
  name: string,
  trail: string[],
  done: Set<string>,
  path: string,
): void {
  if (done.has(name)) return;
  if (trail.includes(name)) {
    const cycle = trail.slice(trail.indexOf(name));
    throw new ParamError(`${path}.${name}`, `a type may not contain itself: ${[...cycle, name].join(" → ")}`);
  }
  trail.push(name);
  for (const field of types[name] ?? []) {
    const base = baseType(field.type);
    if (Object.hasOwn(types, base)) refuseCycle(types, base, trail, done, path);
  }
  trail.pop();
  done.add(name);
}

/** The element type of an array type, all dimensions off (`Person[][2]` → `Person`). */
function baseType(type: string): string {
  let base = type;
  for (let match = ARRAY_SUFFIX.exec(base); match; match = ARRAY_SUFFIX.exec(base)) base = match[1] as string;
  return base;
}

function isAtomic(type: string): boolean {
  if (type === "address" || type === "bool" || type === "string" || type === "bytes") return true;
  const bytes = FIXED_BYTES.exec(type);
  if (bytes) return Number(bytes[1]) >= 1 && Number(bytes[1]) <= 32;
  const integer = INTEGER.exec(type);
  const bits = Number(integer?.[2]);
  return integer !== null && bits >= 8 && bits <= 256 && bits % 8 === 0;
}

/** A struct's value, each declared field checked and normalized. */
function structValue(
  types: Record<string, TypedField[]>,
  name: string,
  value: unknown,
  path: string,
  budget: {structs: number},
): Record<string, unknown> {
  if (--budget.structs < 0) throw new ParamError(path, `more than ${MAX_STRUCTS} structs in the domain and message`);
  const data = object(value, path);
  const out = record<unknown>();
  for (const field of types[name] as TypedField[]) {
    const fieldData = Object.hasOwn(data, field.name) ? data[field.name] : undefined;
    if (fieldData === undefined || fieldData === null) {
      throw new ParamError(`${path}.${field.name}`, `missing (${field.type} of ${name})`);
    }
    out[field.name] = fieldValue(types, field.type, fieldData, `${path}.${field.name}`, budget);
  }
  return out;
}

function fieldValue(
  types: Record<string, TypedField[]>,
  type: string,
  value: unknown,
  path: string,
  budget: {structs: number},
): unknown {
  const array = ARRAY_SUFFIX.exec(type);
  if (array) {
    const [, element, length] = array as unknown as [string, string, string];
    if (!Array.isArray(value)) throw new ParamError(path, `want an array (${type}), got ${jsonType(value)}`);
    if (length !== "" && value.length !== Number(length)) {
      throw new ParamError(path, `want ${length} elements (${type}), got ${value.length}`);
    }
    return value.map((item, i) => fieldValue(types, element, item, `${path}[${i}]`, budget));
  }
  if (Object.hasOwn(types, type)) return structValue(types, type, value, path, budget);
  return atomicValue(type, value, path);
}

function atomicValue(type: string, value: unknown, path: string): unknown {
  const integer = INTEGER.exec(type);
  if (integer) return integerValue(integer[1] === "", Number(integer[2]), value, path, type);
  if (type === "bool") {
    if (typeof value !== "boolean") throw new ParamError(path, `want true or false, got ${jsonType(value)}`);
    return value;
  }
  if (type === "string") {
    if (typeof value !== "string") throw new ParamError(path, `want a string, got ${jsonType(value)}`);
    return value;
  }
  if (typeof value !== "string" || !HEX.test(value)) throw new ParamError(path, `want 0x-prefixed hex bytes (${type})`);
  const size = (value.length - 2) / 2;
  const expected = type === "address" ? 20 : Number(FIXED_BYTES.exec(type)?.[1] ?? -1);
  if (expected !== -1 && size !== expected) throw new ParamError(path, `want ${expected} bytes (${type}), got ${size}`);
  return value.toLowerCase();
}

/** A JSON number (a safe integer), a decimal string or a hex string, within the type's range. */
function integerValue(signed: boolean, bits: number, value: unknown, path: string, type: string): bigint {
  let n: bigint;
  if (typeof value === "number" && Number.isSafeInteger(value)) n = BigInt(value);
  else if (typeof value === "string" && (DECIMAL.test(value) || SIGNED_HEX.test(value))) {
    n = value.startsWith("-") ? -BigInt(value.slice(1)) : BigInt(value);
  } else {
    throw new ParamError(path, `want an integer (${type}): a safe JSON number, a decimal or a 0x-hex string`);
  }
  const min = signed ? -(1n << BigInt(bits - 1)) : 0n;
  const max = signed ? (1n << BigInt(bits - 1)) - 1n : (1n << BigInt(bits)) - 1n;
  if (n < min || n > max) throw new ParamError(path, `${n} is out of range for ${type}`);
  return n;
}

/** A record without a prototype: a JSON key such as `__proto__` or `constructor` is just a key in it. */
function record<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

function object(value: unknown, path: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ParamError(path, `want an object, got ${jsonType(value)}`);
  }
  return value as Record<string, unknown>;
}
