/**
 * The chain a block extends, read back from its parent (not simply the best chain): headers by height for
 * fork-detection data (449 ancestors, docs/protocol/header.md §5), the uncle family (7 generations,
 * docs/protocol/consensus.md §3), BLOCKHASH (256), the blocks REMASC reads and the BlockHeader native contract's
 * headers (4,000, with their uncles and total difficulties). Walking parentHash links
 * stops at the first canonical ancestor; below it the canonical index answers by number.
 */
import type {FamilyAncestor, HeaderAncestry} from "@xchain/consensus";
import type {BlockHeader} from "@xchain/primitives";
import {equalBytes} from "@xchain/utils";
import type {ChainStore} from "../store/chainStore.ts";

/** How many recent ancestors BLOCKHASH can see. */
const BLOCKHASH_WINDOW = 256;

/** Headers of one block's own chain, loaded on demand from the committed database. */
export class AncestorView {
  private readonly byNumber = new Map<number, BlockHeader>();
  private lowest: BlockHeader;
  /** Set once the walk reached a canonical ancestor: every height up to it is canonical. */
  private canonicalTop: number | undefined;

  constructor(
    private readonly store: ChainStore,
    readonly parent: BlockHeader,
    /** The current head's hash: canonical by definition, so a block extending the head needs no index read. */
    private readonly headHash: Uint8Array,
    /**
     * On a forked chain, the fork anchor's hash: stored like a genesis but without a body, it is in the
     * uncle family with no uncles (its own are upstream blocks, never a local one), so that a sibling of
     * block F+1 (orphaned by evm_revert) can be an uncle, as a sibling of block 1 is on a chain from a genesis.
     */
    private readonly anchorHash?: Uint8Array,
  ) {
    this.byNumber.set(parent.number, parent);
    this.lowest = parent;
  }

  /** The ancestor at `blockNumber` (at most the parent's number) on this chain. */
  async headerAt(blockNumber: number): Promise<BlockHeader | undefined> {
    if (blockNumber < 0 || blockNumber > this.parent.number) return undefined;
    await this.walkDownTo(blockNumber);
    const known = this.byNumber.get(blockNumber);
    if (known) return known;
    const hash = await this.store.canonical.hashAt(blockNumber);
    const header = hash && (await this.store.blocks.getHeader(hash));
    if (header) this.byNumber.set(blockNumber, header);
    return header;
  }

  /** The ancestor at `blockNumber` with the headers of the uncles it includes (REMASC's siblings). */
  async withUncles(blockNumber: number): Promise<{header: BlockHeader; uncles: BlockHeader[]} | undefined> {
    const header = await this.headerAt(blockNumber);
    if (!header) return undefined;
    return {header, uncles: (await this.store.blocks.getUncles(header.hash())) ?? []};
  }

  /** Loads heights `from` to the parent's, so that the returned ancestry answers synchronously. */
  async ancestry(from: number): Promise<HeaderAncestry> {
    const start = Math.max(0, from);
    await this.walkDownTo(start);
    if (this.canonicalTop !== undefined && start < this.lowest.number) {
      for await (const [blockNumber, hash] of this.store.canonical.hashes(start, this.lowest.number - 1)) {
        const header = await this.store.blocks.getHeader(hash);
        if (header) this.byNumber.set(blockNumber, header);
      }
    }
    return {headerByNumber: (n) => this.byNumber.get(n)};
  }

  /** The ancestors within `generations` of the child block, with the uncles each included (for `unclesRule`). */
  async family(generations: number): Promise<FamilyAncestor[]> {
    const family: FamilyAncestor[] = [];
    for (let n = this.parent.number; n > this.parent.number - generations && n >= 0; n--) {
      const header = await this.headerAt(n);
      if (header && this.anchorHash && equalBytes(header.hash(), this.anchorHash)) {
        family.push({header, uncleHashes: []});
        break;
      }
      const uncles = header && (await this.store.blocks.getUncles(header.hash()));
      if (header && uncles) family.push({header, uncleHashes: uncles.map((u) => u.hash())});
    }
    return family;
  }

  /** The uncles the stored block `hash` includes (the BlockHeader native contract). */
  uncles(hash: Uint8Array): Promise<BlockHeader[] | undefined> {
    return this.store.blocks.getUncles(hash);
  }

  /** The total difficulty up to the stored block `hash` (the BlockHeader native contract). */
  totalDifficulty(hash: Uint8Array): Promise<bigint | undefined> {
    return this.store.totalDifficulty.get(hash);
  }

  /** BLOCKHASH for the child block: the hash of one of its 256 most recent ancestors. */
  async blockHash(blockNumber: number): Promise<Uint8Array | undefined> {
    if (blockNumber <= this.parent.number - BLOCKHASH_WINDOW) return undefined;
    return (await this.headerAt(blockNumber))?.hash();
  }

  private async walkDownTo(blockNumber: number): Promise<void> {
    while (this.lowest.number > blockNumber && this.canonicalTop === undefined) {
      if (await this.isCanonical(this.lowest)) {
        this.canonicalTop = this.lowest.number;
        return;
      }
      const next = await this.store.blocks.getHeader(this.lowest.parentHash);
      if (!next) return;
      this.byNumber.set(next.number, next);
      this.lowest = next;
    }
  }

  private async isCanonical(header: BlockHeader): Promise<boolean> {
    if (equalBytes(header.hash(), this.headHash)) return true;
    const hash = await this.store.canonical.hashAt(header.number);
    return hash !== undefined && equalBytes(hash, header.hash());
  }
}
