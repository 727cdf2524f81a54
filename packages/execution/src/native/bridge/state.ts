/**
 * `getStateForDebugging` and `eth_bridgeState` (docs/protocol/native-contracts.md §10.11): rskj's
 * `BridgeState.getEncoded` and `stateToMap`. The encoding is an RLP list of six items, each but the
 * first an RLP string wrapping the serialized collection; a fresh network's is `0xcb8081c081c081c081c08180`.
 */
import {RLP} from "@ethereumjs/rlp";
import {bigIntToBytes, bytesToHex} from "@xchain/utils";
import {
  encodePegoutsWaitingForConfirmations,
  encodePegoutsWaitingForSignatures,
  encodeReleaseRequests,
  encodeRlpInteger,
  encodeUtxoList,
  rskTxHashOrder,
} from "./serialization.ts";
import type {BridgeStorage} from "./storage.ts";

/** `eth_bridgeState`'s answer, keys in rskj's order. */
export interface BridgeStateJson {
  btcBlockchainBestChainHeight: number;
  /** The RSK tx hashes of the peg-outs waiting for signatures: 64 lowercase hex digits, no 0x. */
  rskTxsWaitingForSignatures: string[];
}

/** `BridgeState.getEncoded()`: what `getStateForDebugging()` returns (as ABI `bytes`). */
export async function encodeStateForDebugging(storage: BridgeStorage): Promise<Uint8Array> {
  const head = await storage.chainHead();
  return RLP.encode([
    bigIntToBytes(BigInt(head.height)),
    encodeUtxoList(await storage.activeFederationUtxos()),
    encodePegoutsWaitingForSignatures(await storage.pegoutsWaitingForSignatures()),
    encodeReleaseRequests(await storage.releaseRequestQueue(), true),
    encodePegoutsWaitingForConfirmations(await storage.pegoutsWaitingForConfirmations(), true),
    encodeRlpInteger(await storage.nextPegoutHeight()),
  ]);
}

/**
 * `eth_bridgeState`'s object from the same storage. rskj decodes its own encoding back without the
 * RSKIP-146 hashes and so throws once a peg-out is queued (docs/protocol/native-contracts.md §10.11);
 * xchain answers the object instead.
 */
export async function bridgeStateJson(storage: BridgeStorage): Promise<BridgeStateJson> {
  const head = await storage.chainHead();
  const waiting = await storage.pegoutsWaitingForSignatures();
  return {
    btcBlockchainBestChainHeight: head.height,
    rskTxsWaitingForSignatures: waiting
      .map((entry) => entry.rskTxHash)
      .sort(rskTxHashOrder)
      .map((hash) => bytesToHex(hash)),
  };
}
