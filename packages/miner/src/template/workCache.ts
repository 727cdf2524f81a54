/**
 * The last templates handed out, keyed by hashForMergedMining (docs/protocol/mining-rpc.md §2: submissions
 * for older work fail).
 */
import {bytesToHex} from "@xchain/utils";
import type {EthHeaderWork} from "../ethWork.ts";
import type {BlockTemplate} from "./blockTemplate.ts";

/** A template as work: whether its next getWork notifies, and its eth_getWork header once asked for. */
export interface Work {
  template: BlockTemplate;
  /**
   * True until getWork has answered it once, when it was built for a new parent or higher fees
   * (docs/protocol/mining-rpc.md §2).
   */
  notify: boolean;
  ethWork?: EthHeaderWork;
}

/** Least recently added first out. */
export class WorkCache {
  private readonly entries = new Map<string, Work>();

  constructor(private readonly size: number) {}

  /** Adds `work`; a rebuilt identical template keeps the eth_getWork header already handed out for it. */
  add(work: Work): void {
    const key = bytesToHex(work.template.hashForMergedMining);
    work.ethWork ??= this.entries.get(key)?.ethWork;
    this.entries.delete(key);
    this.entries.set(key, work);
    if (this.entries.size > this.size) this.entries.delete(this.entries.keys().next().value as string);
  }

  get(hashForMergedMining: Uint8Array): Work | undefined {
    return this.entries.get(bytesToHex(hashForMergedMining));
  }

  /** The cached work whose eth_getWork header matches, if any. */
  find(predicate: (work: Work) => boolean): Work | undefined {
    for (const work of this.entries.values()) if (predicate(work)) return work;
    return undefined;
  }

  clear(): void {
    this.entries.clear();
  }
}
