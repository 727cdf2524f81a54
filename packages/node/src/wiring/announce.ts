/**
 * Wiring step 8, the announcement: the start-up banner, the warning of a node alone on its
 * network, and the "JSON-RPC ready" line with every endpoint and how long start-up took.
 */
import type {Chain} from "@xchain/chain";
import type {Chainspec} from "@xchain/chainspec";
import type {ForkSource} from "@xchain/state";
import {warnIfAlone} from "../log/aloneWarning.ts";
import {logStartupBanner} from "../log/startupBanner.ts";
import type {Logger} from "../logger.ts";
import type {NodeOptions} from "../options.ts";
import {XCHAIN_BUILD} from "../version.ts";
import {cowPrivateKeys} from "../wallet/devWallet.ts";
import type {RpcEndpoints} from "./rpc.ts";

/** What the announcement tells. */
export interface StartedNode {
  version: string;
  chainspec: Chainspec;
  chain: Chain;
  /** The upstream a fork reads (fork mode). */
  fork?: Pick<ForkSource, "url" | "header" | "chainId" | "dialect"> | undefined;
  /** The p2p listen multiaddrs; undefined when p2p is off. */
  p2pAddresses: string[] | undefined;
  endpoints: RpcEndpoints;
  /** Undefined when metrics are off. */
  metricsUrl: string | undefined;
  logger: Logger;
}

/** Logs the banner, the alone warning and the ready line. */
export function announceStart(opts: NodeOptions, started: StartedNode): void {
  const {version, chainspec, chain, fork, p2pAddresses, endpoints, metricsUrl, logger} = started;
  const head = chain.head();
  logStartupBanner(
    {
      version,
      network: chainspec.params.name,
      chainId: chainspec.params.chainId,
      dataDir: opts.dataDir,
      head: {number: head.number, hash: head.hash},
      p2p: p2pAddresses,
      miner: opts.miner,
      devKeys: chainspec.params.name === "regtest" || (fork && opts.wallet.enabled) ? cowPrivateKeys() : [],
      ...(fork
        ? {
            fork: {
              url: fork.url,
              number: fork.header.number,
              hash: fork.header.hash,
              chainId: fork.chainId,
              dialect: fork.dialect,
            },
          }
        : {}),
    },
    logger.child({module: "node"}),
  );
  warnIfAlone(
    {
      network: opts.network,
      chainId: chainspec.params.chainId,
      p2pEnabled: opts.p2p.enabled,
      bootnodes: opts.p2p.bootnodes,
      allowSolo: opts.miner.allowSolo,
    },
    logger.child({module: "p2p"}),
  );
  const startupMs = Math.round(performance.now());
  logger
    .child({module: "rpc"})
    .info(
      {...endpoints, p2p: p2pAddresses, metrics: metricsUrl, startupMs, build: XCHAIN_BUILD},
      `JSON-RPC ready ${startupMs} ms after start: ${[endpoints.http, endpoints.ws].filter(Boolean).join(" ") || "(no listener enabled)"}`,
    );
}
