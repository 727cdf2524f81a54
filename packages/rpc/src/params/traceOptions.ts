/**
 * The options object of debug_trace* (docs/protocol/debug-traces.md §2): which tracer, and its
 * switches, read from the object itself and from `tracerConfig`. Unknown keys are ignored; an
 * unknown tracer is -32602 naming the tracers served.
 */
import {BOOLEAN_SCHEMA, type JsonSchema, objectSchema} from "../jsonrpc/jsonSchema.ts";
import {type Codec, jsonType, objectMembers, ParamError, withSchema} from "./codec.ts";

/** The tracers served, by wire name. */
export const TRACER_NAMES = ["rskTracer", "callTracer", "prestateTracer"] as const;

/** A tracer served. */
export type TracerName = (typeof TRACER_NAMES)[number];

/** The decoded options. */
export interface TraceOptions {
  tracer: TracerName;
  disableStack: boolean;
  disableMemory: boolean;
  disableStorage: boolean;
  onlyTopCall: boolean;
  withLog: boolean;
  /** prestateTracer: what changed, before and after, instead of the state before. */
  diffMode: boolean;
}

/** The options when none are given: the struct logger with everything on. */
export const DEFAULT_TRACE_OPTIONS: TraceOptions = {
  tracer: "rskTracer",
  disableStack: false,
  disableMemory: false,
  disableStorage: false,
  onlyTopCall: false,
  withLog: false,
  diffMode: false,
};

const SWITCHES = ["disableStack", "disableMemory", "disableStorage", "onlyTopCall", "withLog", "diffMode"] as const;

/** geth's switch for memory, the inverse of `disableMemory`, read when `disableMemory` is not given. */
const ENABLE_MEMORY = "enableMemory";

const SWITCH_SCHEMA: JsonSchema = {oneOf: [BOOLEAN_SCHEMA, {type: "string", enum: ["true", "false"]}]};
const SWITCH_PROPERTIES = Object.fromEntries([...SWITCHES, ENABLE_MEMORY].map((key) => [key, SWITCH_SCHEMA]));

/** The members of the options object, for the schemas of objects that hold them (debug_traceCall's). */
export const TRACE_OPTION_PROPERTIES: Record<string, JsonSchema> = {
  tracer: {type: "string", enum: [...TRACER_NAMES]},
  tracerConfig: objectSchema("tracer config", SWITCH_PROPERTIES),
  ...SWITCH_PROPERTIES,
};

/** Decodes the options object; switches may be booleans or the strings "true"/"false" (docs/protocol/debug-traces.md §2). */
export const traceOptions: Codec<TraceOptions> = withSchema(
  objectSchema("trace options", TRACE_OPTION_PROPERTIES),
  (value, path) => decodeTraceOptions(objectMembers(value, path), path),
);

/** The trace options among `members`, the members of the object at `path`. */
export function decodeTraceOptions(members: Record<string, unknown>, path: string): TraceOptions {
  const config =
    members.tracerConfig === undefined || members.tracerConfig === null
      ? {}
      : objectMembers(members.tracerConfig, `${path}.tracerConfig`);
  const options: TraceOptions = {...DEFAULT_TRACE_OPTIONS, tracer: tracerName(members.tracer, `${path}.tracer`)};
  const read = (key: string): boolean | undefined => {
    const inConfig = config[key] !== undefined && config[key] !== null;
    const raw = inConfig ? config[key] : members[key];
    if (raw === undefined || raw === null) return undefined;
    return flag(raw, inConfig ? `${path}.tracerConfig.${key}` : `${path}.${key}`);
  };
  for (const key of SWITCHES) options[key] = read(key) ?? options[key];
  const enableMemory = read(ENABLE_MEMORY);
  if (enableMemory !== undefined && read("disableMemory") === undefined) options.disableMemory = !enableMemory;
  return options;
}

function tracerName(value: unknown, path: string): TracerName {
  if (value === undefined || value === null) return DEFAULT_TRACE_OPTIONS.tracer;
  if (typeof value !== "string") throw new ParamError(path, `expected a string, got ${jsonType(value)}`);
  const name = TRACER_NAMES.find((n) => n.toLowerCase() === value.toLowerCase());
  if (!name) throw new ParamError(path, `unknown tracer "${value}"; served: ${TRACER_NAMES.join(", ")}`);
  return name;
}

function flag(value: unknown, path: string): boolean {
  if (typeof value === "boolean") return value;
  if (value === "true" || value === "false") return value === "true";
  throw new ParamError(path, `expected a boolean, got ${jsonType(value)}`);
}
