/**
 * Fork mode's options (docs/forking.md §4): the `[fork]` keys checked together with the rest of the
 * configuration, the fork block as the upstream reader takes it, and what fork mode turns off.
 */
import {hexToBytesOrNull} from "@xchain/utils";
import {ConfigError, ConfigErrorCode} from "../config/errors.ts";
import type {NodeOptions} from "../options.ts";

const BLOCK_NUMBER = /^(0|[1-9][0-9]{0,15})$/;
const BLOCK_HASH = /^0x[0-9a-fA-F]{64}$/;

/** `fork.block` as the upstream reader takes it: a number, a 32-byte hash, or undefined (the upstream's head − safeDepth). */
export function forkBlockOf(block: string | undefined): number | Uint8Array | undefined {
  if (block === undefined) return undefined;
  if (BLOCK_NUMBER.test(block) && Number.isSafeInteger(Number(block))) return Number(block);
  if (BLOCK_HASH.test(block)) return hexToBytesOrNull(block.slice(2)) as Uint8Array;
  throw new ConfigError({
    code: ConfigErrorCode.BAD_VALUE,
    key: "fork.block",
    source: "fork.block",
    value: JSON.stringify(block),
    expected: "a decimal block number or a 0x-prefixed 32-byte block hash",
  });
}

/**
 * Refuses a fork configuration that cannot run: fork mode runs regtest's rules (a fork of mainnet
 * is a local development chain, never a mainnet node), and the other `fork.*` keys need `fork.url`.
 */
export function checkForkOptions(options: NodeOptions): void {
  const {fork} = options;
  if (fork.url === undefined) {
    const given = (["block", "chainId", "cacheDir"] as const).find((key) => fork[key] !== undefined);
    const stray = given ?? (fork.offline ? "offline" : undefined);
    if (stray !== undefined) {
      throw new ConfigError({code: ConfigErrorCode.CONFLICT, key: `fork.${stray}`, reason: "it needs fork.url"});
    }
    return;
  }
  if (options.network !== "regtest") {
    throw new ConfigError({
      code: ConfigErrorCode.CONFLICT,
      key: "fork.url",
      reason: `a fork runs regtest's rules over the upstream's state, with the upstream's chain id: leave network at regtest (it is ${options.network})`,
    });
  }
  forkBlockOf(fork.block);
}

/** Whether the options fork an upstream. */
export function isForkMode(options: Pick<NodeOptions, "fork">): boolean {
  return options.fork.url !== undefined;
}

/**
 * The options a fork runs with: no p2p (the chain is the node's own, its state roots are delta
 * roots no peer shares) and no call workers (a worker thread cannot reach the main thread's
 * upstream reader: calls run on the main thread). Unchanged without a fork.
 */
export function effectiveOptions(options: NodeOptions): NodeOptions {
  if (!isForkMode(options)) return options;
  return {...options, p2p: {...options.p2p, enabled: false}, rpc: {...options.rpc, callWorkers: 0}};
}
