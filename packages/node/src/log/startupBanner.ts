/**
 * The start-up summary, written once before the "JSON-RPC ready" line: network, chain id, data
 * directory and head; the p2p endpoints; the miner; and on regtest the ten dev accounts with their
 * private keys (as anvil prints them), marked as public.
 */
import {publicKeyToAddress} from "@xchain/primitives";
import {bytesToPrefixedHex, type Logger, publicKeyOf} from "@xchain/utils";
import {formatDuration, shortHash} from "./format.ts";

/** What the banner shows. */
export interface StartupInfo {
  version: string;
  network: string;
  chainId: number;
  dataDir: string;
  head: {number: number; hash: Uint8Array};
  /** The p2p listen multiaddrs; undefined when p2p is off. */
  p2p: string[] | undefined;
  miner: {enabled: boolean; coinbase: Uint8Array; blockTimeMs: number; autoMine: boolean; instant: boolean};
  /** The private keys to print (the cow accounts on regtest and a fork with the dev wallet; none elsewhere). */
  devKeys: readonly Uint8Array[];
  /** Fork mode: the upstream and its block the chain extends. */
  fork?: {url: string; number: number; hash: Uint8Array; chainId: bigint; dialect: string};
}

/** One line of the banner: its JSON fields and its message. */
export interface BannerLine {
  fields: Record<string, unknown>;
  msg: string;
}

/** The miner line: `miner on: coinbase 0x…, a block every 1.0 s and as soon as a transaction arrives`. */
export function minerLine({enabled, coinbase, blockTimeMs, autoMine, instant}: StartupInfo["miner"]): string {
  const address = bytesToPrefixedHex(coinbase);
  if (!enabled) return `miner off (merge-miners get work from mnr_getWork), coinbase ${address}`;
  const when = [
    blockTimeMs > 0 ? `every ${formatDuration(blockTimeMs)}` : undefined,
    autoMine ? (instant ? "as soon as a transaction arrives" : "when transactions are pending") : undefined,
  ].filter(Boolean);
  return `miner on: coinbase ${address}, a block ${when.length > 0 ? when.join(" and ") : "only on evm_mine"}`;
}

/** The dev accounts block: a warning line, then `(i) address  private key` per account. */
export function devAccountsText(devKeys: readonly Uint8Array[]): string {
  const rows = devKeys.map(
    (key, i) => `(${i}) ${bytesToPrefixedHex(publicKeyToAddress(publicKeyOf(key)))}  ${bytesToPrefixedHex(key)}`,
  );
  return [
    "dev accounts (address, private key); these keys are PUBLIC: anyone can spend what they hold, never use them outside regtest",
    ...rows,
  ].join("\n");
}

/** The fork line: `fork of block 120 0x1234…abcd of http://127.0.0.1:4444 (chain id 33, xchain)`. */
function forkLine(fork: NonNullable<StartupInfo["fork"]>): BannerLine {
  return {
    fields: {
      forkUrl: fork.url,
      forkBlock: fork.number,
      forkHash: bytesToPrefixedHex(fork.hash),
      upstreamChainId: fork.chainId.toString(),
    },
    msg: `fork of block ${fork.number} ${shortHash(fork.hash)} of ${fork.url} (chain id ${fork.chainId}, ${fork.dialect}); local blocks from ${fork.number + 1}`,
  };
}

/** The banner's lines, in order. */
export function startupBannerLines(info: StartupInfo): BannerLine[] {
  const {network, chainId, dataDir, head, p2p, miner, devKeys} = info;
  const lines: BannerLine[] = [
    {
      fields: {
        version: info.version,
        network,
        chainId,
        dataDir,
        head: head.number,
        headHash: bytesToPrefixedHex(head.hash),
      },
      msg: `xchain ${info.version} on ${network} (chain id ${chainId}), data directory ${dataDir}, head block ${head.number} ${shortHash(head.hash)}`,
    },
    ...(info.fork ? [forkLine(info.fork)] : []),
    {
      fields: {p2pEndpoints: p2p ?? []},
      msg: p2p === undefined ? "p2p off" : `p2p endpoints: ${p2p.join(" ")}`,
    },
    {
      fields: {miner: miner.enabled, coinbase: bytesToPrefixedHex(miner.coinbase), blockTimeMs: miner.blockTimeMs},
      msg: minerLine(miner),
    },
  ];
  if (devKeys.length > 0) {
    lines.push({
      fields: {devAccounts: devKeys.map((key) => bytesToPrefixedHex(publicKeyToAddress(publicKeyOf(key))))},
      msg: devAccountsText(devKeys),
    });
  }
  return lines;
}

/** Writes the banner at info. */
export function logStartupBanner(info: StartupInfo, logger: Logger): void {
  for (const {fields, msg} of startupBannerLines(info)) logger.info(fields, msg);
}
