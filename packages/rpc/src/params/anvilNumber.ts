/**
 * The numbers anvil's controls take (foundry's `deserialize_number`): a JSON integer, a hex string
 * with `0x` (leading zeros allowed) or a decimal string, up to 2^256 − 1. Hardhat and viem send
 * QUANTITYs, which this accepts too.
 */
import {type JsonSchema, QUANTITY_SCHEMA} from "../jsonrpc/jsonSchema.ts";
import {type Codec, jsonType, ParamError, withSchema} from "./codec.ts";

const HEX = /^0x[0-9a-fA-F]{1,64}$/;
const DECIMAL = /^[0-9]{1,78}$/;
const UINT256_MAX = (1n << 256n) - 1n;

// anyOf: a QUANTITY is also hex "with leading zeros" (none), which a oneOf would refuse.
const SCHEMA: JsonSchema = {
  anyOf: [
    QUANTITY_SCHEMA,
    {title: "hex with leading zeros", type: "string", pattern: HEX.source},
    {title: "decimal", type: "string", pattern: DECIMAL.source},
    {type: "integer", minimum: 0},
  ],
};

/** An unsigned 256-bit integer as anvil reads one. */
export const anvilUint: Codec<bigint> = withSchema(SCHEMA, (value, path) => {
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value) || value < 0) throw new ParamError(path, "expected a non-negative integer");
    return BigInt(value);
  }
  if (typeof value !== "string") throw new ParamError(path, `expected a number or a string, got ${jsonType(value)}`);
  if (!HEX.test(value) && !DECIMAL.test(value)) {
    throw new ParamError(path, "expected 0x and 1 to 64 hex digits, or decimal digits");
  }
  const number = BigInt(value);
  if (number > UINT256_MAX) throw new ParamError(path, "larger than 2^256 - 1");
  return number;
});
