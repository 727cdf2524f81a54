/** The permission and limit flags of `xchain keys add` and `xchain keys set`, and how they change a key. */
import type {ApiKeyRecord} from "@xchain/rpc";
import {type Command, InvalidArgumentError} from "commander";

/** The flags as commander parses them; unset ones leave the key as it is. */
export interface KeyFlags {
  label?: string;
  namespaces?: string[];
  methods?: string[];
  stateOverride?: boolean | "node";
  rps?: number;
  burst?: number;
  maxBatch?: number;
  maxWs?: number;
  maxSubscriptions?: number;
  logsRange?: number;
  traceRange?: number;
}

const list = (value: string): string[] => value.split(",").flatMap((v) => (v.trim() === "" ? [] : [v.trim()]));

function count(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("expected a whole number of at least 1");
  return n;
}

function overrideChoice(value: string): boolean | "node" {
  if (value === "on") return true;
  if (value === "off") return false;
  if (value === "node") return "node";
  throw new InvalidArgumentError("expected on, off or node");
}

/** Adds the flags to a command. */
export function withKeyFlags(command: Command): Command {
  return command
    .option("--label <text>", "a name for the key (shown by list)")
    .option("--namespaces <list>", "namespaces it may call, comma-separated (default eth,net,web3,xchain)", list)
    .option(
      "--methods <list>",
      "single methods granted besides, restricted ones included (xchain_getStorageBytesAt)",
      list,
    )
    .option(
      "--state-override <on|off|node>",
      "eth_call state overrides; node: as rpc.allowCallStateOverride",
      overrideChoice,
    )
    .option("--rps <n>", "requests per second (a batch counts its requests)", count)
    .option("--burst <n>", "requests at once on a full bucket", count)
    .option("--max-batch <n>", "most requests in one batch", count)
    .option("--max-ws <n>", "WebSocket connections open at once", count)
    .option("--max-subscriptions <n>", "subscriptions over all its connections", count)
    .option("--logs-range <n>", "most blocks one eth_getLogs range covers", count)
    .option("--trace-range <n>", "most blocks one trace_filter covers", count);
}

/** `record` with the flags that were given applied. */
export function applyKeyFlags(record: ApiKeyRecord, flags: KeyFlags): ApiKeyRecord {
  const permissions = {...record.permissions};
  if (flags.namespaces) permissions.namespaces = flags.namespaces;
  if (flags.methods) permissions.methods = flags.methods;
  if (flags.stateOverride === "node") delete permissions.stateOverride;
  else if (flags.stateOverride !== undefined) permissions.stateOverride = flags.stateOverride;
  const limits = {...record.limits};
  if (flags.rps !== undefined) limits.requestsPerSecond = flags.rps;
  if (flags.burst !== undefined) limits.burst = flags.burst;
  if (flags.maxBatch !== undefined) limits.maxBatchSize = flags.maxBatch;
  if (flags.maxWs !== undefined) limits.maxWsConnections = flags.maxWs;
  if (flags.maxSubscriptions !== undefined) limits.maxSubscriptions = flags.maxSubscriptions;
  if (flags.logsRange !== undefined) limits.logsMaxBlockRange = flags.logsRange;
  if (flags.traceRange !== undefined) limits.traceMaxBlockRange = flags.traceRange;
  return {...record, label: flags.label ?? record.label, permissions, limits};
}
