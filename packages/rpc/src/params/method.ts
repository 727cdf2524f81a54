/**
 * `method(params, handler)`: declares a method's positional parameters next to its body. The
 * handler's argument types are inferred from the parameter list, and a missing, extra or
 * undecodable parameter becomes -32602 naming the argument, here and nowhere else (design "RPC").
 */
import {MethodUnavailableError, RpcError} from "../jsonrpc/errors.ts";
import type {JsonSchema} from "../jsonrpc/jsonSchema.ts";
import type {RequestContext, RpcMethod} from "../jsonrpc/registry.ts";
import {type Codec, describeDecodeError} from "./codec.ts";

/** One positional parameter. */
export interface Param<T> {
  readonly name: string;
  readonly required: boolean;
  decode(value: unknown): T;
  /** The value of an omitted optional parameter. */
  readonly fallback: T;
  /** What the codec accepts (`rpc.discover`). */
  readonly schema: JsonSchema | undefined;
}

/** A required parameter. */
export function param<T>(name: string, codec: Codec<T>): Param<T> {
  return {name, required: true, decode: (value) => codec(value, name), fallback: undefined as T, schema: codec.schema};
}

/** An optional parameter (omitted or null): `fallback` when absent, undefined if none is given. */
export function optional<T>(name: string, codec: Codec<T>): Param<T | undefined>;
export function optional<T>(name: string, codec: Codec<T>, fallback: T): Param<T>;
export function optional<T>(name: string, codec: Codec<T>, fallback?: T): Param<T | undefined> {
  return {name, required: false, decode: (value) => codec(value, name), fallback, schema: codec.schema};
}

type Values<P extends readonly Param<unknown>[]> = {[K in keyof P]: P[K] extends Param<infer T> ? T : never};

/** A method from its parameters and a handler that receives them decoded, then the request context. */
export function method<const P extends readonly Param<unknown>[]>(
  params: P,
  handler: (...args: [...Values<P>, RequestContext]) => unknown,
): RpcMethod {
  return {
    params: params.map(({name, required, schema}) => ({name, required, schema})),
    invoke(raw, context) {
      if (raw.length > params.length) {
        throw RpcError.invalidParams(`too many arguments, want at most ${params.length}`);
      }
      const args: unknown[] = new Array(params.length + 1);
      for (let i = 0; i < params.length; i++) args[i] = decodeParam(params[i] as Param<unknown>, i, raw[i]);
      args[params.length] = context;
      return handler(...(args as [...Values<P>, RequestContext]));
    },
  };
}

/** A method registered so that the inventory is complete; it answers -32601 with `reason` (design "RPC"). */
export function unsupported(reason: string): RpcMethod {
  return {
    unsupported: reason,
    invoke() {
      throw new MethodUnavailableError(reason);
    },
  };
}

function decodeParam<T>(p: Param<T>, index: number, value: unknown): T {
  if (value === undefined || (value === null && !p.required)) {
    if (p.required) throw RpcError.invalidParams(`missing value for required argument ${index} (${p.name})`);
    return p.fallback;
  }
  try {
    return p.decode(value);
  } catch (e) {
    const described = describeDecodeError(e);
    if (!described) throw e;
    throw RpcError.invalidParams(`invalid argument ${index} (${described.path}): ${described.detail}`);
  }
}
