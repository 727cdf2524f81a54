/**
 * The light client's block store in the Bridge's storage (docs/protocol/native-contracts.md §5.4, §5.5;
 * rskj's `RepositoryBtcBlockStoreWithCache`): each block under its hash (display order), the head under
 * `blockStoreChainHead`, the main chain's hash per height under `btcBlockHeight-<h>` (RSKIP-199). A
 * fresh store holds the network's genesis, then its checkpoint when it has one.
 */
import {asBytes, decodeRlp, encodeRlp} from "@xchain/primitives";
import {bigIntToFixedBytes, bytesToBigInt, bytesToHex, concatBytes, equalBytes} from "@xchain/utils";
import {BridgeKey, blockHeightKey} from "../storageKeys.ts";
import {type BtcBlockStore, blockHashOf, headerWork, parentHashOf} from "./blockChain.ts";
import type {BtcChainRules} from "./chainRules.ts";
import {PeginError, PeginErrorCode} from "./errors.ts";
import type {BytesStorage, StoredBlock} from "./types.ts";

/** The activations and constants the store's format and search depend on. */
export interface BlockStoreOptions {
  rules: BtcChainRules;
  /** The network's 80-byte Bitcoin genesis header. */
  genesisHeader: Uint8Array;
  /** RSKIP-454: stored blocks carry 32 bytes of chain work (116 bytes) instead of 12 (96 bytes). */
  storedBlockV2: boolean;
  /** RSKIP-199: the main-chain height index is kept and bounds how deep a height may be searched. */
  heightIndex: boolean;
  btcHeightWhenBlockIndexActivates: number;
  maxDepthToSearchBlocksBelowIndexActivation: number;
}

const HEADER_SIZE = 80;

function encodeStoredBlock(block: StoredBlock, v2: boolean): Uint8Array {
  const height = new Uint8Array(4);
  new DataView(height.buffer).setUint32(0, block.height);
  return concatBytes(bigIntToFixedBytes(block.chainWork, v2 ? 32 : 12), height, block.header);
}

/** Either form, by its length (rskj reads the legacy one by length whatever the activations). */
function decodeStoredBlock(value: Uint8Array): StoredBlock {
  const workBytes = value.length === 32 + 4 + HEADER_SIZE ? 32 : 12;
  return {
    chainWork: bytesToBigInt(value.subarray(0, workBytes)),
    height: new DataView(value.buffer, value.byteOffset + workBytes, 4).getUint32(0),
    header: value.slice(workBytes + 4, workBytes + 4 + HEADER_SIZE),
  };
}

/** `RepositoryBtcBlockStoreWithCache` without the cache (the cache changes nothing observable). */
export class BridgeBlockStore implements BtcBlockStore {
  private constructor(
    private readonly storage: BytesStorage,
    private readonly options: BlockStoreOptions,
  ) {}

  /**
   * Opens the store, writing genesis as the head when no head is stored, then the checkpoint when the
   * head is genesis (`checkIfInitialized`, `ensureBtcBlockStore`).
   */
  static async open(storage: BytesStorage, options: BlockStoreOptions): Promise<BridgeBlockStore> {
    const store = new BridgeBlockStore(storage, options);
    const genesis: StoredBlock = {header: options.genesisHeader, chainWork: headerWork(options.genesisHeader), height: 0};
    if ((await storage.getBytes(BridgeKey.blockStoreChainHead)).length === 0) {
      await store.put(genesis);
      await store.setChainHead(genesis);
    }
    const checkpoint = options.rules.checkpoint;
    if (checkpoint !== undefined && equalBytes((await store.chainHead()).header, genesis.header)) {
      await store.put(checkpoint);
      await store.setChainHead(checkpoint);
    }
    return store;
  }

  /** The block the store started from: the checkpoint, else genesis (`getLowestBlock`). */
  lowestBlock(): StoredBlock {
    const {checkpoint} = this.options.rules;
    if (checkpoint !== undefined) return checkpoint;
    return {header: this.options.genesisHeader, chainWork: headerWork(this.options.genesisHeader), height: 0};
  }

  async get(hash: Uint8Array): Promise<StoredBlock | undefined> {
    const value = await this.storage.getBytes(hash);
    return value.length === 0 ? undefined : decodeStoredBlock(value);
  }

  async put(block: StoredBlock): Promise<void> {
    await this.storage.putBytes(blockHashOf(block.header), encodeStoredBlock(block, this.options.storedBlockV2));
  }

  async chainHead(): Promise<StoredBlock> {
    return decodeStoredBlock(await this.storage.getBytes(BridgeKey.blockStoreChainHead));
  }

  async setChainHead(block: StoredBlock): Promise<void> {
    await this.storage.putBytes(BridgeKey.blockStoreChainHead, encodeStoredBlock(block, this.options.storedBlockV2));
    await this.setMainChainBlock(block.height, blockHashOf(block.header));
  }

  async setMainChainBlock(height: number, hash: Uint8Array): Promise<void> {
    if (this.options.heightIndex) await this.storage.putBytes(blockHeightKey(height), encodeRlp(hash));
  }

  /** The main chain's block at `height` by the index (`getInMainchain`). */
  private async indexed(height: number): Promise<StoredBlock | undefined> {
    if (!this.options.heightIndex) return undefined;
    const value = await this.storage.getBytes(blockHeightKey(height));
    if (value.length === 0) return undefined;
    return this.get(asBytes(decodeRlp(value), "btcBlockHeight"));
  }

  /**
   * `getStoredBlockAtMainChainHeight`: above the head, or (RSKIP-199) below the searchable limit,
   * throws PeginError HEIGHT_NOT_SEARCHABLE; otherwise the indexed block, else a walk down from the head.
   */
  async atMainChainHeight(height: number): Promise<StoredBlock | undefined> {
    const head = await this.chainHead();
    const depth = head.height - height;
    if (depth < 0) throw notSearchable(height, head.height);
    if (this.options.heightIndex) {
      const activation = this.options.btcHeightWhenBlockIndexActivates;
      const maxDepth = this.options.maxDepthToSearchBlocksBelowIndexActivation;
      const limit = head.height - activation > maxDepth ? activation : head.height - maxDepth;
      if (height < limit) throw notSearchable(height, limit);
    }
    return (await this.indexed(height)) ?? (await this.atMainChainDepth(depth));
  }

  /** `getStoredBlockAtMainChainDepth`: walks `depth` parents down from the head; undefined when one is missing. */
  async atMainChainDepth(depth: number): Promise<StoredBlock | undefined> {
    const head = await this.chainHead();
    let block: StoredBlock | undefined = head;
    for (let i = 0; i < depth && block !== undefined; i++) block = await this.get(parentHashOf(block));
    if (block !== undefined && block.height !== head.height - depth) {
      throw new PeginError(
        {code: PeginErrorCode.HEIGHT_NOT_SEARCHABLE, height: block.height, limit: head.height - depth},
        `Bitcoin block ${bytesToHex(blockHashOf(block.header))} at depth ${depth} has height ${block.height}`,
      );
    }
    return block;
  }
}

function notSearchable(height: number, limit: number): PeginError {
  return new PeginError(
    {code: PeginErrorCode.HEIGHT_NOT_SEARCHABLE, height, limit},
    `Bitcoin height ${height} is outside what the Bridge's block store searches (limit ${limit})`,
  );
}
