/**
 * JSON Schemas of the wire types (docs/rpc.md §4), as the parameter codecs describe themselves in
 * `rpc.discover`'s OpenRPC document (docs/rpc.md §4.9). They describe what a codec accepts, not
 * every rule it checks (a QUANTITY's bit width, an object's member exclusions are in the codec).
 */

/** A JSON Schema (draft 7, as OpenRPC 1.2 uses it): a plain JSON object. */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** Any value: a parameter or result whose codec does not describe itself. */
export const ANY_SCHEMA: JsonSchema = {};

/** QUANTITY: `0x` and hex digits without leading zeros. */
export const QUANTITY_SCHEMA: JsonSchema = {
  title: "QUANTITY",
  type: "string",
  pattern: "^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$",
};

/** DATA of `bytes` bytes, or of any length when omitted. */
export function dataSchema(bytes?: number): JsonSchema {
  return bytes === undefined
    ? {title: "DATA", type: "string", pattern: "^0x([0-9a-fA-F]{2})*$"}
    : {title: `DATA${bytes}`, type: "string", pattern: `^0x[0-9a-fA-F]{${bytes * 2}}$`};
}

/** A boolean. */
export const BOOLEAN_SCHEMA: JsonSchema = {type: "boolean"};

/** A string. */
export const STRING_SCHEMA: JsonSchema = {type: "string"};

/** An object with these optional members; others are allowed unless `closed`. */
export function objectSchema(title: string, properties: Record<string, JsonSchema>, closed = false): JsonSchema {
  return {title, type: "object", properties, ...(closed ? {additionalProperties: false} : {})};
}

/** `schema` or an array of it (anyOf: an undescribed `schema`, `{}`, also matches the array). */
export function oneOrManySchema(schema: JsonSchema): JsonSchema {
  return {anyOf: [schema, {type: "array", items: schema}]};
}
