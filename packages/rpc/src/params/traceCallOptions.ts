/**
 * debug_traceCall's third parameter (docs/protocol/debug-traces.md §6): the trace options of
 * debug_trace* plus geth's `stateOverrides` (eth_call's state override, docs/protocol/state-override.md)
 * and `blockOverrides`, the fields of the block context the call runs in. A block override this
 * chain has no use for (`prevRandao`, `blobBaseFee`, `beaconRoot`, `withdrawals`) or an unknown one is -32602.
 */
import type {ExecutionBlockContext, StateOverride} from "@xchain/execution";
import {objectSchema} from "../jsonrpc/jsonSchema.ts";
import {type Codec, objectMembers, optionalMember, ParamError, withSchema} from "./codec.ts";
import {address, gasQuantity, quantity, quantityNumber} from "./hex.ts";
import {stateOverride} from "./stateOverride.ts";
import {DEFAULT_TRACE_OPTIONS, decodeTraceOptions, TRACE_OPTION_PROPERTIES, type TraceOptions} from "./traceOptions.ts";

/** The fields of the call's block context that a block override replaces. */
export type BlockOverrides = Partial<ExecutionBlockContext>;

/** The decoded options of debug_traceCall. */
export interface TraceCallOptions extends TraceOptions {
  stateOverrides: StateOverride | undefined;
  blockOverrides: BlockOverrides | undefined;
}

/** The options when none are given: the struct logger, nothing overridden. */
export const DEFAULT_TRACE_CALL_OPTIONS: TraceCallOptions = {
  ...DEFAULT_TRACE_OPTIONS,
  stateOverrides: undefined,
  blockOverrides: undefined,
};

/** Each block override by geth's name (and its older name), as the block context field it sets. */
const BLOCK_FIELDS: Record<string, {field: keyof ExecutionBlockContext; codec: Codec<unknown>}> = {
  number: {field: "number", codec: quantityNumber},
  time: {field: "timestamp", codec: quantityNumber},
  gasLimit: {field: "gasLimit", codec: gasQuantity},
  feeRecipient: {field: "coinbase", codec: address},
  coinbase: {field: "coinbase", codec: address},
  difficulty: {field: "difficulty", codec: quantity},
  // BASEFEE returns the block's minimumGasPrice (RSKIP-412).
  baseFeePerGas: {field: "minimumGasPrice", codec: quantity},
  baseFee: {field: "minimumGasPrice", codec: quantity},
};

/** geth's block overrides that have no meaning on this chain. */
const UNUSED_BLOCK_FIELDS = new Set(["prevRandao", "random", "blobBaseFee", "beaconRoot", "withdrawals"]);

const BLOCK_OVERRIDES_SCHEMA = objectSchema(
  "block overrides",
  Object.fromEntries(Object.entries(BLOCK_FIELDS).map(([key, {codec}]) => [key, codec.schema ?? {}])),
  true,
);

const blockOverrides: Codec<BlockOverrides> = withSchema(BLOCK_OVERRIDES_SCHEMA, (value, path) => {
  const members = objectMembers(value, path);
  const overrides: Record<string, unknown> = {};
  for (const key of Object.keys(members)) {
    const known = BLOCK_FIELDS[key];
    if (!known) {
      const why = UNUSED_BLOCK_FIELDS.has(key) ? "not supported on this chain" : "unknown block override field";
      throw new ParamError(`${path}.${key}`, why);
    }
    const decoded = optionalMember(members, key, known.codec, path);
    if (decoded !== undefined) overrides[known.field] = decoded;
  }
  return overrides as BlockOverrides;
});

/** The options codec; a state override of more than `maxAccounts` accounts is a ParamError. */
export function traceCallOptions(maxAccounts: number): Codec<TraceCallOptions> {
  const overrides = stateOverride(maxAccounts);
  const schema = objectSchema("trace call options", {
    ...TRACE_OPTION_PROPERTIES,
    stateOverrides: overrides.schema ?? {},
    blockOverrides: BLOCK_OVERRIDES_SCHEMA,
  });
  return withSchema(schema, (value, path) => {
    const members = objectMembers(value, path);
    return {
      ...decodeTraceOptions(members, path),
      stateOverrides: optionalMember(members, "stateOverrides", overrides, path),
      blockOverrides: optionalMember(members, "blockOverrides", blockOverrides, path),
    };
  });
}
