/**
 * `eth_hashrate` (docs/protocol/mining-rpc.md §5): the hashes the built-in miner actually tried over the recent window,
 * per second, plus the rates external miners reported with `eth_submitHashrate` within it (the
 * latest report of each client id).
 */
import {bytesToHex} from "@xchain/utils";

/** Measures and sums hash rates. */
export class HashrateMeter {
  private readonly samples: {at: number; hashes: number}[] = [];
  private readonly reports = new Map<string, {rate: bigint; at: number}>();

  constructor(
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  /** The built-in miner tried `hashes` nonces. */
  record(hashes: number): void {
    const at = this.now();
    this.samples.push({at, hashes});
    this.forgetSamplesBefore(at - this.windowMs);
  }

  /** An external miner's report (`eth_submitHashrate`); a later one of the same client replaces it. */
  report(hashesPerSecond: bigint, clientId: Uint8Array): void {
    this.reports.set(bytesToHex(clientId), {rate: hashesPerSecond, at: this.now()});
  }

  /** Hashes per second over the window. */
  total(): bigint {
    const since = this.now() - this.windowMs;
    this.forgetSamplesBefore(since);
    const ownHashes = this.samples.reduce((sum, s) => sum + s.hashes, 0);
    let rate = BigInt(Math.floor((ownHashes * 1000) / this.windowMs));
    for (const [id, report] of this.reports) {
      if (report.at < since) this.reports.delete(id);
      else rate += report.rate;
    }
    return rate;
  }

  private forgetSamplesBefore(since: number): void {
    while ((this.samples[0]?.at ?? Number.POSITIVE_INFINITY) < since) this.samples.shift();
  }
}
