/**
 * The light client's block store (docs/protocol/native-contracts.md §10.5; rskj's
 * `RepositoryBtcBlockStoreWithCache`) on the Bridge's storage: each block under its hash, the head,
 * and the main chain's hash per height (RSKIP-199). A fresh store holds the network's genesis, then
 * its checkpoint when it has one.
 */
import {bytesToHex, equalBytes} from "@xchain/utils";
import type {BridgeStorage} from "../storage.ts";
import {BridgeKey} from "../storageKeys.ts";
import {blockHashOf, genesisStoredBlock, type StoredBlock} from "../storedBlock.ts";
import type {BtcBlockStore} from "./blockChain.ts";
import {parentHashOf} from "./blockChain.ts";
import {BTC_CHAIN_RULES, type BtcChainRules} from "./chainRules.ts";
import {PeginError, PeginErrorCode} from "./errors.ts";

/** The activations the store depends on. */
export interface BlockStoreActivations {
  /** RSKIP-199: the main-chain height index is kept and bounds how deep a height may be searched. */
  heightIndex: boolean;
}

/** `RepositoryBtcBlockStoreWithCache` without its cache (which changes nothing observable). */
export class BridgeBlockStore implements BtcBlockStore {
  readonly rules: BtcChainRules;

  private constructor(
    private readonly storage: BridgeStorage,
    private readonly activations: BlockStoreActivations,
  ) {
    this.rules = BTC_CHAIN_RULES[storage.constants.btcParams.id];
  }

  /**
   * Opens the store: with no head stored, genesis becomes the head (`checkIfInitialized`); while the
   * head is genesis, the network's checkpoint is stored and made the head (`ensureBtcBlockStore`).
   */
  static async open(storage: BridgeStorage, activations: BlockStoreActivations): Promise<BridgeBlockStore> {
    const store = new BridgeBlockStore(storage, activations);
    if ((await storage.get(BridgeKey.blockStoreChainHead)).length === 0) {
      const genesis = genesisStoredBlock(storage.constants.btcParams);
      await store.put(genesis);
      // rskj's `setChainHead` also indexes genesis at height 0 (RSKIP-199).
      await store.setChainHead(genesis);
    }
    const {checkpoint} = store.rules;
    if (
      checkpoint !== undefined &&
      equalBytes((await store.chainHead()).header, storage.constants.btcParams.genesisHeader)
    ) {
      await store.put(checkpoint);
      await store.setChainHead(checkpoint);
    }
    return store;
  }

  /** The block the store started from: the checkpoint, else genesis (`getLowestBlock`). */
  lowestBlock(): StoredBlock {
    return this.rules.checkpoint ?? genesisStoredBlock(this.storage.constants.btcParams);
  }

  get(hash: Uint8Array): Promise<StoredBlock | undefined> {
    return this.storage.storedBlock(hash);
  }

  async put(block: StoredBlock): Promise<void> {
    this.storage.putStoredBlock(block);
  }

  chainHead(): Promise<StoredBlock> {
    return this.storage.chainHead();
  }

  async setChainHead(block: StoredBlock): Promise<void> {
    this.storage.setChainHead(block);
    await this.setMainChainBlock(block.height, blockHashOf(block.header));
  }

  async setMainChainBlock(height: number, hash: Uint8Array): Promise<void> {
    if (this.activations.heightIndex) this.storage.setBlockHashAtHeight(height, hash);
  }

  /**
   * `getStoredBlockAtMainChainHeight`: above the head, or (RSKIP-199) below the searchable limit,
   * throws PeginError HEIGHT_NOT_SEARCHABLE; otherwise the indexed block, else a walk down from the head.
   */
  async atMainChainHeight(height: number): Promise<StoredBlock | undefined> {
    const head = await this.chainHead();
    if (height > head.height) throw notSearchable(height, head.height);
    if (this.activations.heightIndex) {
      const activation = this.storage.constants.btcHeightWhenBlockIndexActivates;
      const maxDepth = this.storage.constants.maxDepthToSearchBlocksBelowIndexActivation;
      const limit = head.height - activation > maxDepth ? activation : head.height - maxDepth;
      if (height < limit) throw notSearchable(height, limit);
      const hash = await this.storage.blockHashAtHeight(height);
      const indexed = hash === undefined ? undefined : await this.get(hash);
      if (indexed !== undefined) return indexed;
    }
    return this.atMainChainDepth(head.height - height);
  }

  /** `getStoredBlockAtMainChainDepth`: walks `depth` parents down from the head; undefined when one is missing. */
  async atMainChainDepth(depth: number): Promise<StoredBlock | undefined> {
    const head = await this.chainHead();
    let block: StoredBlock | undefined = head;
    for (let i = 0; i < depth && block !== undefined; i++) block = await this.get(parentHashOf(block));
    if (block !== undefined && block.height !== head.height - depth) {
      throw new PeginError(
        {code: PeginErrorCode.INCONSISTENT_STORE, hash: bytesToHex(blockHashOf(block.header)), height: block.height},
        `Bitcoin block at depth ${depth} has height ${block.height}, not ${head.height - depth}`,
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
