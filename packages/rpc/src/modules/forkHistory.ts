/**
 * History at or below the fork block (docs/forking.md §5): on a forked node, the methods of the state
 * package's `FORWARDED_METHODS` answer from the upstream when what they name is the upstream's: a block
 * number below the fork block F (at F too for block, transaction, receipt, uncle and trace objects: the
 * fork's block F holds none of the upstream's transactions), a block hash the local chain does not hold
 * above F, a transaction hash neither the chain nor the txpool holds. The parameters go as the client sent
 * them, except a tag (`earliest`, `safe`, `finalized`…), which is sent as the number it names here. The
 * answer is the upstream's JSON, never parsed. eth_getLogs splits its range at F: the upstream's logs up to
 * F, then the local ones. Without a `ForkHistory` nothing is wrapped (buildMethodTables).
 */
import {FORWARDED_METHODS, type ForkSource, type ForwardRule} from "@xchain/state";
import {toQuantity} from "@xchain/utils";
import type {ForkHistory} from "../deps.ts";
import {RpcError} from "../jsonrpc/errors.ts";
import {RawJson} from "../jsonrpc/rawJson.ts";
import {type NamespaceMethods, type RequestContext, type RpcMethod, wireName} from "../jsonrpc/registry.ts";
import type {ModuleDeps} from "../moduleDeps.ts";
import {type BlockRef, blockRef, LATEST} from "../params/blockRef.ts";
import type {Codec} from "../params/codec.ts";
import {logFilterRequest} from "../params/filterObject.ts";
import {hash} from "../params/hex.ts";
import {traceBlockRef, traceFilterRequest} from "../params/traceFilter.ts";
import {blockNumberOf} from "../resolve/blocks.ts";

/** The `ForkHistory` of the fork's upstream source (read anew at each call: a re-anchor may replace it). */
export function forkHistory(source: () => Pick<ForkSource, "forkNumber" | "forward">): ForkHistory {
  return {
    get forkNumber() {
      return source().forkNumber;
    },
    forward: (method, params) => source().forward(method, params),
  };
}

type HistoryDeps = Pick<ModuleDeps, "chain" | "txpool" | "pendingBlock" | "options"> & {forkHistory: ForkHistory};

/** `tables` with each forwarded method wrapped to answer from the upstream where its history is the upstream's. */
export function withForkHistory(tables: readonly NamespaceMethods[], deps: HistoryDeps): NamespaceMethods[] {
  const router = new HistoryRouter(deps);
  return tables.map(({namespace, methods}) => ({
    namespace,
    methods: Object.fromEntries(
      Object.entries(methods).map(([name, method]) => {
        const wire = wireName(namespace, name);
        const rule = FORWARDED_METHODS[wire];
        return [name, rule && method.unsupported === undefined ? router.wrap(wire, rule, method) : method];
      }),
    ),
  }));
}

/** Decides, per request, whether the local method or the upstream answers. */
class HistoryRouter {
  constructor(private readonly deps: HistoryDeps) {}

  private get forkNumber(): number {
    return this.deps.forkHistory.forkNumber;
  }

  wrap(wire: string, rule: ForwardRule, local: RpcMethod): RpcMethod {
    const {forkHistory} = this.deps;
    const invoke =
      rule.kind === "logs"
        ? (raw: readonly unknown[], context: RequestContext) => this.logs(wire, local, raw, context)
        : async (raw: readonly unknown[], context: RequestContext) => {
            const forwarded = await this.route(wire, rule, raw);
            return forwarded ? forkHistory.forward(wire, forwarded) : local.invoke(raw, context);
          };
    return {...local, invoke};
  }

  /** The parameters to forward `raw` with, or undefined when the local method answers. */
  private async route(wire: string, rule: Exclude<ForwardRule, {kind: "logs"}>, raw: readonly unknown[]) {
    switch (rule.kind) {
      case "block": {
        const value = raw[rule.param];
        // Absent: the method's default block (latest or pending), which is local.
        if (value === undefined || value === null) return undefined;
        const ref = decoded(wire === "trace_block" ? traceBlockRef : blockRef, value);
        if (ref?.kind === "hash") return (await this.holds(ref.hash, rule.objects)) ? undefined : [...raw];
        const number = ref && this.numberOf(ref);
        if (number === undefined || !this.isUpstreams(number, rule.objects)) return undefined;
        return ref?.kind === "tag" ? replaced(raw, rule.param, toQuantity(number)) : [...raw];
      }
      case "blockHash": {
        const blockHash = decoded(hash, raw[rule.param]);
        return blockHash && !(await this.holds(blockHash, true)) ? [...raw] : undefined;
      }
      case "transaction": {
        const txHash = decoded(hash, raw[rule.param]);
        if (!txHash || this.deps.txpool.get(txHash)) return undefined;
        return (await this.deps.chain.getTransactionLocation(txHash)) ? undefined : [...raw];
      }
      case "traceFilter":
        return this.traceFilter(raw);
    }
  }

  /** trace_filter: forwarded when its range ends at or below F; one that crosses F is refused. */
  private traceFilter(raw: readonly unknown[]): unknown[] | undefined {
    const request = decoded(traceFilterRequest(this.deps.options.trace.maxTracesPerRequest), raw[0]);
    if (!request) return undefined;
    const from = this.numberOf(request.fromBlock) ?? this.deps.chain.head().number;
    const to = this.numberOf(request.toBlock) ?? this.deps.chain.head().number;
    if (from > to || from > this.forkNumber) return undefined;
    if (to > this.forkNumber) {
      throw RpcError.invalidParams(
        `trace_filter's blocks ${from} to ${to} cross the fork block ${this.forkNumber}: ask for the blocks up to ${this.forkNumber} (the upstream's) and above it (the fork's) apart`,
      );
    }
    return replaced(raw, 0, {...(raw[0] as object), fromBlock: toQuantity(from), toBlock: toQuantity(to)});
  }

  /** eth_getLogs: a range up to F forwarded, one above F local, one across F both, concatenated in order. */
  private async logs(wire: string, local: RpcMethod, raw: readonly unknown[], context: RequestContext) {
    const request = raw.length === 1 ? decoded(logFilterRequest, raw[0]) : undefined;
    if (!request) return local.invoke(raw, context);
    const {forkHistory, chain, options} = this.deps;
    if (request.kind === "hash") {
      return (await this.holds(request.blockHash, true)) ? local.invoke(raw, context) : forkHistory.forward(wire, raw);
    }
    const fork = this.forkNumber;
    const from = blockNumberOf(chain, request.fromBlock ?? LATEST, options);
    const to = blockNumberOf(chain, request.toBlock ?? LATEST, options);
    const keyRange = context.principal.requestLimits.logsMaxBlockRange;
    // The local method refuses a reversed range, and a range over an API key's cap, as a whole.
    if (from > fork || from > to || (keyRange !== undefined && to - from + 1 > keyRange)) {
      return local.invoke(raw, context);
    }
    const filter = raw[0] as Record<string, unknown>;
    const upstreamPart = [{...filter, fromBlock: toQuantity(from), toBlock: toQuantity(Math.min(to, fork))}];
    if (to <= fork) return forkHistory.forward(wire, upstreamPart);
    const [upstream, own] = await Promise.all([
      forkHistory.forward(wire, upstreamPart),
      local.invoke([{...filter, fromBlock: toQuantity(fork + 1), toBlock: toQuantity(to)}], context),
    ]);
    if (!Array.isArray(upstream)) {
      throw RpcError.server(`the fork's upstream answered eth_getLogs with ${JSON.stringify(upstream).slice(0, 100)}`);
    }
    return concatenated(JSON.stringify(upstream), own instanceof RawJson ? own.bytes.toString() : JSON.stringify(own));
  }

  /** Whether the local chain holds the block `blockHash` above F (at F too for a state read). */
  private async holds(blockHash: Uint8Array, objects: boolean): Promise<boolean> {
    const header = await this.deps.chain.getHeader(blockHash);
    return header !== undefined && (objects ? header.number > this.forkNumber : header.number >= this.forkNumber);
  }

  /** The number a reference names here; undefined for `pending` where the miner builds a pending block (local). */
  private numberOf(ref: Exclude<BlockRef, {kind: "hash"}>): number | undefined {
    if (ref.kind === "tag" && ref.tag === "pending" && this.deps.pendingBlock) return undefined;
    return blockNumberOf(this.deps.chain, ref, this.deps.options);
  }

  /** Whether block `number` is the upstream's: below F, or F itself for block objects. */
  private isUpstreams(number: number, objects: boolean): boolean {
    return number < this.forkNumber || (objects && number === this.forkNumber);
  }
}

/** `value` decoded, or undefined when it does not decode (the local method then answers the precise -32602). */
function decoded<T>(codec: Codec<T>, value: unknown): T | undefined {
  try {
    return codec(value, "param");
  } catch {
    return undefined;
  }
}

/** A copy of `raw` with `value` at `index`. */
function replaced(raw: readonly unknown[], index: number, value: unknown): unknown[] {
  const params = [...raw];
  params[index] = value;
  return params;
}

/** Two JSON arrays as one. */
function concatenated(first: string, second: string): RawJson {
  if (first === "[]") return new RawJson(Buffer.from(second));
  if (second === "[]") return new RawJson(Buffer.from(first));
  return new RawJson(Buffer.from(`${first.slice(0, -1)},${second.slice(1)}`));
}
