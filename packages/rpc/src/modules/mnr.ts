/**
 * The `mnr` namespace (docs/protocol/mining-rpc.md §2, docs/protocol/mining-rpc.md §3) with rskj's exact
 * shapes; hex arguments are accepted with or without `0x` (docs/protocol/README.md §2). A failed submission
 * is -33000 with the miner's reason.
 */
import type {SubmitBlockResult} from "@xchain/miner";
import {toData, toQuantity, utf8ToBytes} from "@xchain/utils";
import type {RpcMethod} from "../jsonrpc/registry.ts";
import type {ModuleDeps} from "../moduleDeps.ts";
import {type Codec, ParamError, string, withSchema} from "../params/codec.ts";
import {looseHex} from "../params/hex.ts";
import {method, param} from "../params/method.ts";
import {requireMiner} from "./unavailable.ts";

/** Whitespace-separated 32-byte hashes (docs/protocol/mining-rpc.md §3), each with or without 0x. */
const hashList: Codec<Uint8Array[]> = withSchema(
  {
    title: "whitespace-separated hashes",
    type: "string",
  },
  (value, path) => {
    const items = string(value, path).trim().split(/\s+/).filter(Boolean);
    if (items.length === 0) throw new ParamError(path, "expected at least one hash");
    return items.map((item, i) => {
      const bytes = looseHex(item, `${path}[${i}]`);
      if (bytes.length !== 32) throw new ParamError(`${path}[${i}]`, `expected 32 bytes, got ${bytes.length}`);
      return bytes;
    });
  },
);

/** A transaction count in hex, radix 16, with or without 0x (docs/protocol/mining-rpc.md §3). */
const hexCount: Codec<number> = withSchema({type: "string", pattern: "^(0x)?[0-9a-fA-F]{1,8}$"}, (value, path) => {
  const text = string(value, path);
  const digits = text.startsWith("0x") ? text.slice(2) : text;
  if (!/^[0-9a-fA-F]{1,8}$/.test(digits)) throw new ParamError(path, "expected a hex count");
  return Number.parseInt(digits, 16);
});

/** docs/protocol/mining-rpc.md §3's success object; blockImportedResult is the hex of the ASCII name. */
function submitted(result: SubmitBlockResult): object {
  return {
    blockImportedResult: toData(utf8ToBytes(result.importResult)),
    blockHash: toData(result.blockHash),
    blockIncludedHeight: toQuantity(result.blockIncludedHeight),
  };
}

/** mnr_* methods. */
export function mnrMethods({miner}: Pick<ModuleDeps, "miner">): Record<string, RpcMethod> {
  return {
    /**
     * Handler for `mnr_getWork` (docs/protocol/mining-rpc.md §2): feesPaidToMiner is a decimal string; `height`,
     * the number of the block mined, is xchain's extra field after rskj's five (docs/mining.md, "Get work");
     * -33000 MINING_DISABLED on a node that does not mine (`miner.server.enabled`), as every mnr_* method
     */
    getWork: method([], async () => {
      const work = await requireMiner(miner).getWork();
      return {
        blockHashForMergedMining: toData(work.blockHashForMergedMining),
        target: toData(work.target),
        feesPaidToMiner: work.feesPaidToMiner.toString(10),
        notify: work.notify,
        parentBlockHash: toData(work.parentBlockHash),
        height: toQuantity(work.height),
      };
    }),
    /** Handler for `mnr_submitBitcoinBlock` */
    submitBitcoinBlock: method([param("bitcoinBlockHex", looseHex)], async (block) =>
      submitted(await requireMiner(miner).submitBitcoinBlock(block)),
    ),
    /** Handler for `mnr_submitBitcoinBlockTransactions`: blockHashHex is ignored, as in rskj */
    submitBitcoinBlockTransactions: method(
      [
        param("blockHashHex", string),
        param("blockHeaderHex", looseHex),
        param("coinbaseHex", looseHex),
        param("txnHashesHex", hashList),
      ],
      async (_blockHash, header, coinbase, txids) =>
        submitted(await requireMiner(miner).submitBitcoinBlockTransactions(header, coinbase, txids)),
    ),
    /** Handler for `mnr_submitBitcoinBlockPartialMerkle`: blockHashHex is ignored, as in rskj */
    submitBitcoinBlockPartialMerkle: method(
      [
        param("blockHashHex", string),
        param("blockHeaderHex", looseHex),
        param("coinbaseHex", looseHex),
        param("merkleHashesHex", hashList),
        param("blockTxnCountHex", hexCount),
      ],
      async (_blockHash, header, coinbase, branch, count) =>
        submitted(await requireMiner(miner).submitBitcoinBlockPartialMerkle(header, coinbase, branch, count)),
    ),
  };
}
