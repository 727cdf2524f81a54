/**
 * eth_* mining methods (docs/rpc.md §4.2, §4.5; docs/mining.md): rskj lacks eth_getWork and eth_submitWork
 * (docs/protocol/mining-rpc.md §5), xchain makes them real through the miner. Without a miner eth_mining is
 * false and eth_hashrate 0x0, the others -32601 "not available".
 */
import {bytesToBigInt, toData, toQuantity} from "@xchain/utils";
import type {RpcMethod} from "../../jsonrpc/registry.ts";
import type {ModuleDeps} from "../../moduleDeps.ts";
import {data8, hash, word} from "../../params/hex.ts";
import {method, param} from "../../params/method.ts";
import {requireMiner} from "../unavailable.ts";

/** eth_netHashrate looks at the blocks of the last hour before the head (rskj `HashRateCalculator`). */
const NET_HASHRATE_PERIOD_SECONDS = 3_600;
/** …but at most this many blocks, so that a fast regtest chain answers quickly. */
const NET_HASHRATE_MAX_BLOCKS = 1_000;

/** eth_getWork, eth_submitWork, eth_submitHashrate, eth_hashrate, eth_netHashrate, eth_mining, eth_coinbase. */
export function ethMiningMethods({miner, chain}: Pick<ModuleDeps, "miner" | "chain">): Record<string, RpcMethod> {
  return {
    /**
     * Handler for `eth_getWork`: [pow hash, seed, boundary] (docs/rpc.md §2.11, docs/mining.md); -33000
     * MINING_DISABLED on a node that does not mine (`miner.server.enabled`), as eth_submitWork
     */
    getWork: method([], async () => (await requireMiner(miner).getEthWork()).map(toData)),
    /** Handler for `eth_submitWork`: true when the solution imported a block */
    submitWork: method(
      [param("nonce", data8), param("powHash", hash), param("mixDigest", hash)],
      (nonce, powHash, mixDigest) => requireMiner(miner).submitEthWork(nonce, powHash, mixDigest),
    ),
    /** Handler for `eth_submitHashrate` */
    submitHashrate: method([param("hashrate", word), param("id", hash)], (rate, id) => {
      requireMiner(miner).submitHashrate(bytesToBigInt(rate), id);
      return true;
    }),
    /** Handler for `eth_hashrate` */
    hashrate: method([], () => toQuantity(miner?.hashrate() ?? 0n)),
    /** Handler for `eth_netHashrate`: difficulty (with uncles') of the last hour's blocks per second */
    netHashrate: method([], async () => {
      const head = chain.head();
      const since = head.header.timestamp - NET_HASHRATE_PERIOD_SECONDS;
      let work = 0n;
      for (let n = head.number; n > head.number - NET_HASHRATE_MAX_BLOCKS && n >= 0; n--) {
        const block = await chain.getBlockByNumber(n);
        if (!block || block.header.timestamp <= since) break;
        work += block.uncles.reduce((sum, uncle) => sum + uncle.difficulty, block.header.difficulty);
      }
      return toQuantity(work / BigInt(NET_HASHRATE_PERIOD_SECONDS));
    }),
    /** Handler for `eth_mining`: whether the built-in miner runs */
    mining: method([], () => miner?.isMining() ?? false),
    /** Handler for `eth_coinbase` */
    coinbase: method([], () => toData(requireMiner(miner).coinbase)),
  };
}
