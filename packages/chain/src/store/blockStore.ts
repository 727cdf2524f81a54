/**
 * Blocks, canonical or not: `header` (hash → full header RLP), `body` (hash → RLP [transactions as
 * received, uncles in full encoding]) and `blocksByNumber` (number ‖ hash → empty), which lists
 * every stored block of a height. A dev node's own impersonated transactions (docs/rpc.md §4.10)
 * add `impersonatedSender` (transaction hash → sender) in the same batch, so that their sender is
 * carried again when the body is read: one lookup, only for a transaction whose signature has the
 * impersonation form.
 */
import {Bucket, type KeyValueStore, numberKey, type WriteBatch} from "@xchain/db";
import {
  asList,
  Block,
  type BlockDecodeOptions,
  BlockHeader,
  decodeRlp,
  decodeRlpList,
  encodeRlp,
  type RlpItem,
  Transaction,
} from "@xchain/primitives";
import {bytesToHex, concatBytes, equalBytes} from "@xchain/utils";
import {LruCache} from "./lruCache.ts";

/**
 * Estimated heap bytes of a cached header: its decoded fields (bigints, hashes, the bloom) and the
 * merged-mining fields (Bitcoin header, coinbase, merkle proof), with the encoding it keeps.
 */
export const HEADER_CACHE_ENTRY_BYTES = 1536;

// Heights whose stored hashes are kept: the miner's uncle search asks for the same last few heights
// (docs/protocol/consensus.md §3: 7 generations) for every template, a LevelDB iterator each.
const HASHES_AT_CACHE_HEIGHTS = 64;

/** The repository of block headers and bodies. */
export class BlockStore {
  private readonly headers: LruCache<string, BlockHeader>;
  private readonly hashesByNumber = new LruCache<number, Uint8Array[]>(HASHES_AT_CACHE_HEIGHTS);
  /** Bumped by every block remembered: a `hashesAt` read that overlapped a write is not cached. */
  private remembered = 0;

  /** `headerCacheSize`: decoded headers kept (`ChainOptions.headerCacheSize`). */
  constructor(
    private readonly store: KeyValueStore,
    private readonly decodeOptions: BlockDecodeOptions,
    headerCacheSize: number,
  ) {
    this.headers = new LruCache(headerCacheSize);
  }

  /** The header cache's estimated bytes held and budget (its entries at `HEADER_CACHE_ENTRY_BYTES`). */
  headerCacheBytes(): {bytes: number; budgetBytes: number} {
    return {
      bytes: this.headers.size * HEADER_CACHE_ENTRY_BYTES,
      budgetBytes: this.headers.maxEntries * HEADER_CACHE_ENTRY_BYTES,
    };
  }

  /** Adds the writes that store `block` to `batch`. */
  put(batch: WriteBatch, block: Block): void {
    const hash = block.hash();
    this.putHeader(batch, block.header);
    batch.put(Bucket.body, hash, encodeBody(block));
    for (const tx of block.transactions) {
      if (tx.impersonatedSender) batch.put(Bucket.impersonatedSender, tx.hash(), tx.impersonatedSender);
    }
  }

  /**
   * Adds the writes that store a header without its body (a fork's anchor: its transactions are the
   * upstream's); `getBlock` has no block for it, `getHeader` and `hashesAt` have.
   */
  putHeader(batch: WriteBatch, header: BlockHeader): void {
    const hash = header.hash();
    batch.put(Bucket.header, hash, header.encode());
    batch.put(Bucket.blocksByNumber, concatBytes(numberKey(header.number), hash), new Uint8Array(0));
  }

  /**
   * Caches a header whose block was just written (so that its children find it without a read), and
   * adds it to its height's cached hashes.
   */
  remember(header: BlockHeader): void {
    const hash = header.hash();
    this.headers.set(bytesToHex(hash), header);
    this.remembered++;
    const atHeight = this.hashesByNumber.get(header.number);
    if (atHeight && !atHeight.some((known) => equalBytes(known, hash))) atHeight.push(hash);
  }

  async getHeader(hash: Uint8Array): Promise<BlockHeader | undefined> {
    const key = bytesToHex(hash);
    const cached = this.headers.get(key);
    if (cached) return cached;
    const bytes = await this.store.get(Bucket.header, hash);
    if (!bytes) return undefined;
    const header = BlockHeader.decode(bytes, this.decodeOptions.rules);
    this.headers.set(key, header);
    return header;
  }

  async has(hash: Uint8Array): Promise<boolean> {
    return (await this.getHeader(hash)) !== undefined;
  }

  async getBlock(hash: Uint8Array): Promise<Block | undefined> {
    const header = await this.getHeader(hash);
    const body = header && (await this.store.get(Bucket.body, hash));
    if (!body) return undefined;
    const block = decodeBody(header, body, this.decodeOptions);
    return block.transactions.some((tx) => tx.impersonationClaim()) ? this.withImpersonatedSenders(block) : block;
  }

  /**
   * A stored block's body as stored: the RLP `[transactions as received, uncles]`, the bytes the p2p
   * protocol carries (`/bodies/1`), served without decoding them; undefined when it is not stored.
   */
  getBodyEncoding(hash: Uint8Array): Promise<Uint8Array | undefined> {
    return this.store.get(Bucket.body, hash);
  }

  /**
   * A stored block's encoding (`Block.encode`'s bytes: `[header, transactions, uncles]`), assembled
   * from the stored header and body without decoding them; undefined when either is missing.
   */
  async getBlockEncoding(hash: Uint8Array): Promise<Uint8Array | undefined> {
    const [header, body] = await Promise.all([this.store.get(Bucket.header, hash), this.store.get(Bucket.body, hash)]);
    if (!header || !body) return undefined;
    return encodeRlp([decodeRlp(header), ...decodeRlpList(body, "body")]);
  }

  /** The uncle headers of a stored block (without decoding its transactions). */
  async getUncles(hash: Uint8Array): Promise<BlockHeader[] | undefined> {
    const body = await this.store.get(Bucket.body, hash);
    if (!body) return undefined;
    return decodeUncles(decodeRlpList(body, "body")[1], this.decodeOptions);
  }

  /**
   * `block` with the senders of its own impersonated transactions carried again: those of the
   * impersonation form this node recorded when it stored them. Any other of that form (a peer's)
   * keeps its recovered sender.
   */
  private async withImpersonatedSenders(block: Block): Promise<Block> {
    const transactions = await Promise.all(
      block.transactions.map(async (tx) => {
        const claim = tx.impersonationClaim();
        if (!claim) return tx;
        const recorded = await this.store.get(Bucket.impersonatedSender, tx.hash());
        return recorded && equalBytes(recorded, claim) ? tx.asImpersonated() : tx;
      }),
    );
    return new Block(block.header, transactions, block.uncles);
  }

  /** Hashes of every stored block numbered `blockNumber` or above, canonical or not, by number (the state collector's window). */
  async *hashesFrom(blockNumber: number): AsyncIterable<Uint8Array> {
    for await (const [key] of this.store.entries(Bucket.blocksByNumber, {gte: numberKey(blockNumber)}))
      yield key.slice(8);
  }

  /**
   * Hashes of every stored block at `blockNumber`, canonical or not. Every block stored after its
   * genesis comes through `remember`, which keeps the cached heights complete.
   */
  async hashesAt(blockNumber: number): Promise<Uint8Array[]> {
    const cached = this.hashesByNumber.get(blockNumber);
    if (cached) return [...cached];
    const remembered = this.remembered;
    const from = numberKey(blockNumber);
    const hashes: Uint8Array[] = [];
    for await (const [key] of this.store.entries(Bucket.blocksByNumber, {gte: from, lt: numberKey(blockNumber + 1)})) {
      hashes.push(key.slice(from.length));
    }
    // A block written while the iterator ran may be missing from what it read.
    if (remembered === this.remembered) this.hashesByNumber.set(blockNumber, [...hashes]);
    return hashes;
  }
}

function encodeBody(block: Block): Uint8Array {
  return encodeRlp([
    block.transactions.map((tx) => [...tx.receivedFields]),
    block.uncles.map((uncle) => decodeRlp(uncle.encode())),
  ]);
}

// The body was validated when it was imported, so decoding it again cannot fail on its content.
function decodeBody(header: BlockHeader, body: Uint8Array, options: BlockDecodeOptions): Block {
  const [txItems, uncleItems] = decodeRlpList(body, "body");
  const txList = asList(txItems, "transactions");
  const transactions = txList.map((item, i) =>
    Transaction.fromRlpItem(item, {chainId: options.chainId, allowRemasc: i === txList.length - 1}),
  );
  return new Block(header, transactions, decodeUncles(uncleItems, options));
}

function decodeUncles(uncleItems: RlpItem | undefined, options: BlockDecodeOptions): BlockHeader[] {
  return asList(uncleItems, "uncles").map((item) => BlockHeader.fromRlpItems(asList(item, "uncle"), options.rules));
}
