/**
 * An rskj node's state at one block, as fork tests read it through a `FakeBlockEndpoint` (docs/forking.md §6):
 * a real rskj block object (testnet, answered by rskj: test/vectors/testnet-blocks-from-rpc-json.json) as the
 * fork block, `web3_clientVersion` and `eth_chainId` as rskj answers them, every account with one balance and
 * no code, and storage from a map of raw stored values: `rsk_getStorageBytesAt` answers them whole (`"0x0"`
 * for none), `eth_getStorageAt` as words (shorter values left-padded, longer ones cut to 32 bytes).
 */
import {concatBytes, hexToBytes, toData} from "@xchain/utils";
import type {FakeBlockEndpoint} from "./fakeBlockEndpoint.ts";
import {readJsonVector} from "./vectors.ts";

/** The block an rskj fork test forks at: its number and the object rskj answered for it. */
export interface RskjForkBlock {
  number: number;
  rpcJson: {hash: string} & Record<string, unknown>;
}

/** The last real testnet block of the vector. */
export function rskjForkBlock(): RskjForkBlock {
  const {blocks} = readJsonVector<{blocks: RskjForkBlock[]}>("testnet-blocks-from-rpc-json.json");
  return blocks[blocks.length - 1] as RskjForkBlock;
}

export const RSKJ_CLIENT_VERSION = "RskJ/9.0.3/Linux/Java1.8/ARROWHEAD-f4e1af5";

/**
 * Makes `endpoint` answer as rskj at `block`. `storage` maps a 32-byte key (`0x` and 64 hex digits) to its raw
 * stored value, read at each request (a test may change it); without it `rsk_getStorageBytesAt` is disabled,
 * as rskj ships it (answered -32601 in rskj's words).
 */
export function serveRskjState(
  endpoint: FakeBlockEndpoint,
  {block, storage, balance}: {block: RskjForkBlock; storage: Map<string, string> | undefined; balance: bigint},
): void {
  endpoint.blocks.set(block.number, block.rpcJson);
  endpoint.methods.set("web3_clientVersion", () => RSKJ_CLIENT_VERSION);
  endpoint.methods.set("eth_chainId", () => "0x1f");
  endpoint.methods.set("eth_getBalance", () => `0x${balance.toString(16)}`);
  endpoint.methods.set("eth_getTransactionCount", () => "0x0");
  endpoint.methods.set("eth_getCode", () => "0x");
  endpoint.methods.set("eth_getStorageAt", ([, key]) => {
    const stored = hexToBytes(storage?.get(String(key)) ?? "0x");
    return toData(
      stored.length >= 32 ? stored.subarray(0, 32) : concatBytes(new Uint8Array(32 - stored.length), stored),
    );
  });
  if (storage) endpoint.methods.set("rsk_getStorageBytesAt", ([, key]) => storage.get(String(key)) ?? "0x0");
  else endpoint.methods.delete("rsk_getStorageBytesAt");
}
