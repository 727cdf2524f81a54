/**
 * The Bridge's storage keys as rskj writes them (docs/protocol/native-contracts.md §10.4,
 * `BridgeStorageIndexKey`): a plain key is the ASCII of its name left-padded with zeros to 32 bytes
 * (`DataWord.fromString`); a compound key is keccak-256 of the ASCII of `name-id`
 * (`DataWord.fromLongString`); a Bitcoin block is stored under its hash itself.
 */
import {bytesToHex, keccak256, utf8ToBytes} from "@xchain/utils";

/** `DataWord.fromString(name)`: the name's ASCII right-aligned in a word. */
export function plainKey(name: string): Uint8Array {
  const ascii = utf8ToBytes(name);
  if (ascii.length > 32) throw new RangeError(`a plain storage key has at most 32 characters: ${name}`);
  const key = new Uint8Array(32);
  key.set(ascii, 32 - ascii.length);
  return key;
}

/** `DataWord.fromLongString(name + "-" + id)`. */
export function compoundKey(name: string, id: string): Uint8Array {
  return keccak256(utf8ToBytes(`${name}-${id}`));
}

/** The plain keys of tier A's and the light client's values. */
export const BridgeKey = {
  /** The light client's head: a StoredBlock (`storedBlock.ts`). */
  blockStoreChainHead: plainKey("blockStoreChainHead"),
  receiveHeadersLastTimestamp: plainKey("receiveHeadersLastTimestamp"),
  /** Peg-out requests with the RSK tx hash that made each (RSKIP-146). */
  releaseRequestQueueWithTxHash: plainKey("releaseRequestQueueWithTxHash"),
  /** Requests without a hash (before RSKIP-146): read and kept, never written by xchain. */
  releaseRequestQueue: plainKey("releaseRequestQueue"),
  /** Peg-outs waiting for confirmations, with the RSK tx hash (RSKIP-146). */
  releaseTransactionSetWithTxHash: plainKey("releaseTransactionSetWithTxHash"),
  releaseTransactionSet: plainKey("releaseTransactionSet"),
  /** Peg-outs waiting for the federators' signatures. */
  rskTxsWaitingFS: plainKey("rskTxsWaitingFS"),
  nextPegoutHeight: plainKey("nextPegoutHeight"),
  newFederationBtcUTXOs: plainKey("newFederationBtcUTXOs"),
  oldFederationBtcUTXOs: plainKey("oldFederationBtcUTXOs"),
  feePerKb: plainKey("feePerKb"),
  feePerKbElection: plainKey("feePerKbElection"),
  lockingCap: plainKey("lockingCap"),
  lockWhitelist: plainKey("lockWhitelist"),
  unlimitedLockWhitelist: plainKey("unlimitedLockWhitelist"),
  activeFedCreationBlockHeight: plainKey("activeFedCreationBlockHeight"),
} as const;

/** `btcTxHashAP-<txid>`: the RSK block that processed a Bitcoin tx (txid in display order, lowercase hex). */
export const processedTxKey = (txid: Uint8Array): Uint8Array => compoundKey("btcTxHashAP", bytesToHex(txid));

/** `btcBlockHeight-<height>`: the main chain's block hash at a height (RSKIP-199). */
export const blockHeightKey = (height: number): Uint8Array => compoundKey("btcBlockHeight", String(height));

/** `releasesOutpointsValues-<btcTxHash>`: the input values of a peg-out (display order). */
export const outpointValuesKey = (btcTxHash: Uint8Array): Uint8Array =>
  compoundKey("releasesOutpointsValues", bytesToHex(btcTxHash));

/** `pegoutTxSigHash-<sighash>`: the index of peg-outs created (RSKIP-379). */
export const pegoutSigHashKey = (sigHash: Uint8Array): Uint8Array =>
  compoundKey("pegoutTxSigHash", bytesToHex(sigHash));

/**
 * `coinbaseInformation-<hash>`: what `registerBtcCoinbaseTransaction` stored for a Bitcoin block (RSKIP-143).
 * The hash is the method's bytes32 argument as given: bitcoinj's `Sha256Hash.toString()` does not reverse it.
 */
export const coinbaseInformationKey = (blockHash: Uint8Array): Uint8Array =>
  compoundKey("coinbaseInformation", bytesToHex(blockHash));
