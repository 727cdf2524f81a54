/**
 * Candidate uncles of the next block (docs/protocol/consensus.md §3, rskj `FamilyUtils.getUncles`): stored blocks that
 * are children of an ancestor within the generation limit, neither ancestors themselves nor
 * already included as an uncle by one of those ancestors; at most the network's uncle list limit.
 */
import type {Chainspec} from "@xchain/chainspec";
import type {BlockHeader} from "@xchain/primitives";
import {bytesToHex, equalBytes} from "@xchain/utils";
import type {MinerChain} from "../deps.ts";

type FamilyReader = Pick<MinerChain, "getHeader" | "getBlock" | "blockHashesAt">;

// Uncle lists of recent blocks (blocks never change); a few generations of templates reuse them.
const USED_UNCLES_CACHE_ENTRIES = 64;

/** Finds the uncles a template includes. */
export class UncleFinder {
  private readonly usedUncles = new Map<string, string[]>();

  constructor(
    private readonly chain: FamilyReader,
    private readonly chainspec: Chainspec,
  ) {}

  /** The candidate uncles of the child of `parent`, oldest first. */
  async candidates(parent: BlockHeader): Promise<BlockHeader[]> {
    const {uncleGenerationLimit, uncleListLimit} = this.chainspec.params;
    const oldest = Math.max(0, parent.number + 1 - uncleGenerationLimit);
    // Newest first: the parent and its ancestors down to height `oldest`.
    const ancestors: BlockHeader[] = [parent];
    for (let last = parent; last.number > oldest; ) {
      const next = await this.chain.getHeader(last.parentHash);
      if (!next) break;
      ancestors.push(next);
      last = next;
    }
    const excluded = new Set(ancestors.map((a) => bytesToHex(a.hash())));
    for (const ancestor of ancestors) for (const used of await this.unclesOf(ancestor)) excluded.add(used);

    const found: BlockHeader[] = [];
    // An ancestor's siblings are uncles only if their parent (the next older ancestor) is in the family.
    for (let k = ancestors.length - 2; k >= 0; k--) {
      const ancestor = ancestors[k] as BlockHeader;
      const grandparent = (ancestors[k + 1] as BlockHeader).hash();
      for (const hash of await this.chain.blockHashesAt(ancestor.number)) {
        if (excluded.has(bytesToHex(hash))) continue;
        const sibling = await this.chain.getHeader(hash);
        if (!sibling || !equalBytes(sibling.parentHash, grandparent)) continue;
        found.push(sibling);
        if (found.length === uncleListLimit) return found;
      }
    }
    return found;
  }

  private async unclesOf(header: BlockHeader): Promise<string[]> {
    if (header.uncleCount === 0) return [];
    const key = bytesToHex(header.hash());
    let hashes = this.usedUncles.get(key);
    if (!hashes) {
      const block = await this.chain.getBlock(header.hash());
      hashes = block?.uncles.map((u) => bytesToHex(u.hash())) ?? [];
      this.usedUncles.set(key, hashes);
      if (this.usedUncles.size > USED_UNCLES_CACHE_ENTRIES) {
        this.usedUncles.delete(this.usedUncles.keys().next().value as string);
      }
    }
    return hashes;
  }
}
