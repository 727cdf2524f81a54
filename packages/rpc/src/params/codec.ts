/**
 * Parameter decoding at the edge (design "RPC"): a codec turns a raw JSON value into a domain
 * value or throws an error whose message starts with the value's path (`call.to: …`), so that one
 * place can turn it into -32602 naming the argument.
 */
import {HexError} from "@xchain/utils";
import {BOOLEAN_SCHEMA, type JsonSchema, oneOrManySchema, STRING_SCHEMA} from "../jsonrpc/jsonSchema.ts";

/**
 * Decodes a raw JSON value found at `path` (an argument's name, `call.to` inside an object).
 * `schema` describes what it accepts for `rpc.discover` (docs/rpc.md §4.9); one without a schema
 * is documented as any value.
 */
export type Codec<T> = ((value: unknown, path: string) => T) & {readonly schema?: JsonSchema};

/** `decode` as a codec described by `schema`. */
export function withSchema<T>(schema: JsonSchema, decode: (value: unknown, path: string) => T): Codec<T> {
  return Object.assign(decode, {schema});
}

/** A value that does not decode; `detail` says why. */
export class ParamError extends Error {
  constructor(
    readonly path: string,
    readonly detail: string,
  ) {
    super(`${path}: ${detail}`);
    this.name = "ParamError";
  }
}

/** The path and reason of a decode failure (a `ParamError` or a `HexError` of the utils codecs), or undefined. */
export function describeDecodeError(error: unknown): {path: string; detail: string} | undefined {
  if (error instanceof ParamError) return {path: error.path, detail: error.detail};
  if (error instanceof HexError) {
    const path = error.type.arg;
    const prefix = `${path}: `;
    const detail = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
    return {path, detail};
  }
  return undefined;
}

/** The JSON type name of a value, for messages. */
export function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** A plain JSON object's members, or a ParamError. */
export function objectMembers(value: unknown, path: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ParamError(path, `expected an object, got ${jsonType(value)}`);
  }
  return value as Record<string, unknown>;
}

/** Decodes an optional member: absent or null gives undefined. */
export function optionalMember<T>(
  members: Record<string, unknown>,
  key: string,
  codec: Codec<T>,
  path: string,
): T | undefined {
  const value = members[key];
  return value === undefined || value === null ? undefined : codec(value, `${path}.${key}`);
}

/** A JSON boolean. */
export const bool: Codec<boolean> = withSchema(BOOLEAN_SCHEMA, (value, path) => {
  if (typeof value !== "boolean") throw new ParamError(path, `expected a boolean, got ${jsonType(value)}`);
  return value;
});

/** A JSON string. */
export const string: Codec<string> = withSchema(STRING_SCHEMA, (value, path) => {
  if (typeof value !== "string") throw new ParamError(path, `expected a string, got ${jsonType(value)}`);
  return value;
});

/** One value or an array of values (address filters). */
export function oneOrMany<T>(codec: Codec<T>): Codec<T[]> {
  return withSchema(oneOrManySchema(codec.schema ?? {}), (value, path) =>
    Array.isArray(value) ? value.map((v, i) => codec(v, `${path}[${i}]`)) : [codec(value, path)],
  );
}
