/**
 * rskj's `NativeContract` framework (`co/rsk/pcc/NativeContract.java`, `NativeMethod.java`; docs/protocol/native-contracts.md §2.5):
 * a contract as a list of methods found by selector. Input of 1–3 bytes, an empty input (none of the
 * contracts built on it has a default method), an unknown or disabled selector and arguments that do not
 * decode all mean "no method": it costs 0 gas and the run fails. A method's price defaults to 2 gas per
 * input byte; its answer is ABI-encoded by rskj's codec, or no bytes at all when it has none.
 */
import {NativeContractFailure, NativeContractFailureCode} from "../../errors.ts";
import {AbiDecodeError, type AbiFunction, type AbiValue, decodeArguments, encodeOutputs} from "./abi.ts";
import type {NativeCallContext, NativeContract, NativeRunResult} from "./types.ts";

/** One method of a native contract. */
export interface NativeMethod {
  readonly fn: AbiFunction;
  /** rskj's `isEnabled` (an RSKIP that adds the method); enabled when absent. */
  enabled?(context: NativeCallContext): boolean;
  /** rskj's `onlyAllowsLocalCalls`: the method fails outside eth_call. */
  readonly localCallsOnly?: boolean;
  /** rskj's `getGas(arguments, data)`; 2 × the input's length when absent. */
  gas?(args: AbiValue[], data: Uint8Array): bigint;
  /**
   * rskj's `execute`: the single output value, or undefined for rskj's null (no output bytes). It fails
   * by throwing `NativeContractFailure` (see `refuse`).
   */
  execute(args: AbiValue[], context: NativeCallContext): Promise<AbiValue | undefined> | AbiValue | undefined;
}

/** What a contract built on the framework is besides its methods. */
export interface NativeMethodsContract {
  readonly name: string;
  readonly address: Uint8Array;
  isActive: NativeContract["isActive"];
  readonly runsOnFork: boolean;
  readonly methods: readonly NativeMethod[];
}

/** A method and its decoded arguments, or why none was found. */
type Parsed = {method: NativeMethod; args: AbiValue[]} | {failure: NativeContractFailureCode; method?: string};

function parse(methods: readonly NativeMethod[], data: Uint8Array, context: NativeCallContext): Parsed {
  // Empty input would be the default method's, and none of these contracts has one.
  if (data.length < 4) return {failure: NativeContractFailureCode.UNKNOWN_METHOD};
  const method = methods.find((m) => m.fn.selector.every((b, i) => data[i] === b));
  if (!method || (method.enabled && !method.enabled(context)))
    return {failure: NativeContractFailureCode.UNKNOWN_METHOD};
  try {
    return {method, args: decodeArguments(method.fn, data)};
  } catch (e) {
    if (e instanceof AbiDecodeError) return {failure: NativeContractFailureCode.BAD_ARGUMENTS, method: method.fn.name};
    throw e;
  }
}

/** A failure of `contract`'s method `method` with rskj's message. */
export function refuse(
  contract: string,
  method: string,
  message: string,
  code = NativeContractFailureCode.ILLEGAL_ARGUMENT,
): never {
  throw new NativeContractFailure({code, contract, method}, `${contract}.${method}: ${message}`);
}

/** A `NativeContract` over `spec`'s methods. */
export function nativeMethodsContract(spec: NativeMethodsContract): NativeContract {
  return {
    name: spec.name,
    address: spec.address,
    isActive: spec.isActive,
    runsOnFork: spec.runsOnFork,
    gas(data, context) {
      const parsed = parse(spec.methods, data, context);
      if ("failure" in parsed) return 0n;
      return parsed.method.gas ? parsed.method.gas(parsed.args, data) : 2n * BigInt(data.length);
    },
    async run(data, context): Promise<NativeRunResult> {
      const parsed = parse(spec.methods, data, context);
      if ("failure" in parsed) {
        const {failure, method} = parsed;
        throw new NativeContractFailure(
          {code: failure, contract: spec.name, ...(method ? {method} : {})},
          `${spec.name}: ${method ? `arguments of ${method} do not decode` : "no method for the input"}`,
        );
      }
      const {method, args} = parsed;
      if (method.localCallsOnly && !context.localCall) {
        refuse(spec.name, method.fn.name, "only allowed in a local call", NativeContractFailureCode.LOCAL_CALL_ONLY);
      }
      const result = await method.execute(args, context);
      return {output: result === undefined ? new Uint8Array(0) : encodeOutputs(method.fn, [result])};
    },
  };
}
