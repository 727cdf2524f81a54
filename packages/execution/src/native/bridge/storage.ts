/**
 * The Bridge's storage (docs/protocol/native-contracts.md §10.4): each value under the key rskj uses,
 * in rskj's encoding, with the value a fresh network answers when the key is unset. Writes are held
 * until `save()`, as rskj's `BridgeSupport.save()` persists a call's changes only when it succeeds;
 * reads see the held writes. The lock whitelist and the fee-per-kb election are read once per call
 * and, once read, written back on `save()`, as rskj's providers do. The light client (tier B) builds on `chainHead`, `storedBlock`,
 * `putStoredBlock`, `setChainHead` and the height index, with `ensureBtcBlockStore` for the lazily
 * stored genesis.
 */
import {RLP} from "@ethereumjs/rlp";
import type {BridgeConstants} from "@xchain/chainspec";
import type {BytesStorage} from "@xchain/state";
import {bytesToHex} from "@xchain/utils";
import {AbiCallElection} from "./election.ts";
import {BridgeStorageError, BridgeStorageErrorCode} from "./errors.ts";
import {LockWhitelist} from "./lockWhitelist.ts";
import {
  decodePegoutsWaitingForConfirmations,
  decodePegoutsWaitingForSignatures,
  decodeReleaseRequests,
  decodeRlpInteger,
  decodeUtxoList,
  encodeReleaseRequests,
  encodeRlpInteger,
  encodeUtxoList,
  type PegoutWaitingForConfirmations,
  type PegoutWaitingForSignatures,
  type ReleaseRequest,
} from "./serialization.ts";
import {BridgeKey, blockHeightKey, processedTxKey} from "./storageKeys.ts";
import {
  blockHashOf,
  decodeStoredBlock,
  encodeStoredBlock,
  genesisStoredBlock,
  type StoredBlock,
} from "./storedBlock.ts";

export class BridgeStorage {
  /** Writes not yet saved, by key hex. */
  private readonly pending = new Map<string, {key: Uint8Array; value: Uint8Array}>();
  /** Read by this call, so saved with it (`WhitelistStorageProviderImpl`, `FeePerKbStorageProviderImpl`). */
  private whitelist: LockWhitelist | undefined;
  private election: AbiCallElection | undefined;

  constructor(
    private readonly store: BytesStorage,
    readonly constants: BridgeConstants,
  ) {}

  /** The value under `key` as this call sees it (empty when unset). */
  async get(key: Uint8Array): Promise<Uint8Array> {
    return this.pending.get(bytesToHex(key))?.value ?? (await this.store.getBytes(key));
  }

  /** Holds a write until `save()`; an empty value deletes the key. */
  put(key: Uint8Array, value: Uint8Array): void {
    this.pending.set(bytesToHex(key), {key, value});
  }

  /** Writes the held values to the state (the call succeeded). */
  async save(): Promise<void> {
    if (this.whitelist) {
      this.put(BridgeKey.lockWhitelist, this.whitelist.encodeOneOff());
      this.put(BridgeKey.unlimitedLockWhitelist, this.whitelist.encodeUnlimited());
    }
    if (this.election) this.put(BridgeKey.feePerKbElection, this.election.encode());
    for (const {key, value} of this.pending.values()) await this.store.putBytes(key, value);
    this.pending.clear();
  }

  private async integer(name: string, key: Uint8Array): Promise<bigint | undefined> {
    const value = await this.get(key);
    return value.length === 0 ? undefined : decodeRlpInteger(name, value);
  }

  /** `feePerKb`: the genesis fee until a vote sets one. */
  async feePerKb(): Promise<bigint> {
    return (await this.integer("feePerKb", BridgeKey.feePerKb)) ?? this.constants.genesisFeePerKb;
  }

  setFeePerKb(value: bigint): void {
    this.put(BridgeKey.feePerKb, encodeRlpInteger(value));
  }

  /** `feePerKbElection`: the votes for a fee per kb not yet decided. */
  async feePerKbElection(): Promise<AbiCallElection> {
    this.election ??= AbiCallElection.decode(
      "feePerKbElection",
      await this.get(BridgeKey.feePerKbElection),
      this.constants.feePerKbChangeAuthorizer,
    );
    return this.election;
  }

  /** The lock whitelist (`lockWhitelist` and `unlimitedLockWhitelist`), the same object for the whole call. */
  async lockWhitelist(): Promise<LockWhitelist> {
    this.whitelist ??= LockWhitelist.decode(
      await this.get(BridgeKey.lockWhitelist),
      await this.get(BridgeKey.unlimitedLockWhitelist),
      this.constants.btcParams.p2pkhVersion,
    );
    return this.whitelist;
  }

  /** `lockingCap`: the initial cap until one is stored (rskj stores it on the first mined call that reads it). */
  async lockingCap(): Promise<{value: bigint; stored: boolean}> {
    const stored = await this.integer("lockingCap", BridgeKey.lockingCap);
    return {value: stored ?? this.constants.lockingCapInitialValue, stored: stored !== undefined};
  }

  setLockingCap(value: bigint): void {
    this.put(BridgeKey.lockingCap, encodeRlpInteger(value));
  }

  /** `btcTxHashAP-<txid>`: the RSK block that processed a Bitcoin tx, or undefined. */
  processedHeight(txid: Uint8Array): Promise<bigint | undefined> {
    return this.integer(`btcTxHashAP-${bytesToHex(txid)}`, processedTxKey(txid));
  }

  setProcessedHeight(txid: Uint8Array, rskBlockNumber: bigint): void {
    this.put(processedTxKey(txid), encodeRlpInteger(rskBlockNumber));
  }

  /** The peg-out requests, the legacy ones (no hash) first, as rskj's `getReleaseRequestQueue` joins them. */
  async releaseRequestQueue(): Promise<ReleaseRequest[]> {
    return [
      ...decodeReleaseRequests("releaseRequestQueue", await this.get(BridgeKey.releaseRequestQueue), false),
      ...decodeReleaseRequests(
        "releaseRequestQueueWithTxHash",
        await this.get(BridgeKey.releaseRequestQueueWithTxHash),
        true,
      ),
    ];
  }

  /** rskj's `saveReleaseRequestQueue`: both keys, each with its entries (an empty list is `0xc0`). */
  setReleaseRequestQueue(entries: readonly ReleaseRequest[]): void {
    this.put(BridgeKey.releaseRequestQueue, encodeReleaseRequests(entries, false));
    this.put(BridgeKey.releaseRequestQueueWithTxHash, encodeReleaseRequests(entries, true));
  }

  async pegoutsWaitingForConfirmations(): Promise<PegoutWaitingForConfirmations[]> {
    return [
      ...decodePegoutsWaitingForConfirmations(
        "releaseTransactionSet",
        await this.get(BridgeKey.releaseTransactionSet),
        false,
      ),
      ...decodePegoutsWaitingForConfirmations(
        "releaseTransactionSetWithTxHash",
        await this.get(BridgeKey.releaseTransactionSetWithTxHash),
        true,
      ),
    ];
  }

  async pegoutsWaitingForSignatures(): Promise<PegoutWaitingForSignatures[]> {
    return decodePegoutsWaitingForSignatures("rskTxsWaitingFS", await this.get(BridgeKey.rskTxsWaitingFS));
  }

  /** `nextPegoutHeight`: 0 until the first batch. */
  async nextPegoutHeight(): Promise<bigint> {
    return (await this.integer("nextPegoutHeight", BridgeKey.nextPegoutHeight)) ?? 0n;
  }

  /** The active federation's UTXOs (`newFederationBtcUTXOs`), each bitcoinj's serialized `UTXO`. */
  async activeFederationUtxos(): Promise<Uint8Array[]> {
    return decodeUtxoList("newFederationBtcUTXOs", await this.get(BridgeKey.newFederationBtcUTXOs));
  }

  setActiveFederationUtxos(utxos: readonly Uint8Array[]): void {
    this.put(BridgeKey.newFederationBtcUTXOs, encodeUtxoList(utxos));
  }

  /** `activeFedCreationBlockHeight`: 0 while nothing is stored (the genesis federation). */
  async activeFederationCreationBlockHeight(): Promise<bigint> {
    return (await this.integer("activeFedCreationBlockHeight", BridgeKey.activeFedCreationBlockHeight)) ?? 0n;
  }

  /** The light client's head: the stored one, else the network's Bitcoin genesis (not stored until `ensureBtcBlockStore`). */
  async chainHead(): Promise<StoredBlock> {
    const value = await this.get(BridgeKey.blockStoreChainHead);
    return value.length === 0
      ? genesisStoredBlock(this.constants.btcParams)
      : decodeStoredBlock("blockStoreChainHead", value);
  }

  /** A stored block by its hash (display order), or undefined. */
  async storedBlock(hash: Uint8Array): Promise<StoredBlock | undefined> {
    const value = await this.get(hash);
    if (value.length > 0) return decodeStoredBlock(bytesToHex(hash), value);
    // Before the store is initialised, the genesis is there all the same.
    const genesis = genesisStoredBlock(this.constants.btcParams);
    const stored = await this.get(BridgeKey.blockStoreChainHead);
    return stored.length === 0 && bytesToHex(hash) === bytesToHex(this.constants.btcParams.genesisHash)
      ? genesis
      : undefined;
  }

  /** `btcBlockHeight-<height>`: the main chain's hash at `height` (RSKIP-199), or undefined. */
  async blockHashAtHeight(height: number): Promise<Uint8Array | undefined> {
    const value = await this.get(blockHeightKey(height));
    if (value.length > 0) return decodeRlpString(`btcBlockHeight-${height}`, value);
    return height === 0 && (await this.get(BridgeKey.blockStoreChainHead)).length === 0
      ? this.constants.btcParams.genesisHash
      : undefined;
  }

  putStoredBlock(block: StoredBlock): void {
    this.put(blockHashOf(block.header), encodeStoredBlock(block));
  }

  /** rskj's `setChainHead`: the head, and the main chain's index at its height. */
  setChainHead(block: StoredBlock): void {
    this.put(BridgeKey.blockStoreChainHead, encodeStoredBlock(block));
    this.setBlockHashAtHeight(block.height, blockHashOf(block.header));
  }

  setBlockHashAtHeight(height: number, hash: Uint8Array): void {
    this.put(blockHeightKey(height), RLP.encode(hash));
  }

  /** rskj's `checkIfInitialized`: with no head stored, the genesis is stored and made the head. */
  async ensureBtcBlockStore(): Promise<void> {
    if ((await this.get(BridgeKey.blockStoreChainHead)).length > 0) return;
    const genesis = genesisStoredBlock(this.constants.btcParams);
    this.putStoredBlock(genesis);
    this.setChainHead(genesis);
  }
}

function decodeRlpString(name: string, value: Uint8Array): Uint8Array {
  let decoded: unknown;
  try {
    decoded = RLP.decode(value);
  } catch {
    decoded = undefined;
  }
  if (!(decoded instanceof Uint8Array) || decoded.length !== 32) {
    throw new BridgeStorageError(
      {code: BridgeStorageErrorCode.UNDECODABLE, key: name, value: bytesToHex(value)},
      `the Bridge's stored ${name} is not an RLP string of a 32-byte hash`,
    );
  }
  return decoded;
}
