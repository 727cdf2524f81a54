/**
 * The start-up warning of a mainnet or testnet node with no bootnodes: these are xchain's own
 * networks, not Rootstock's, with no public peers yet (docs/running-a-network.md), so such a node
 * stays alone on a chain of its own unless told whom to dial. What it says of mining follows
 * `miner.allowSolo`: without it work is refused until a peer is seen; with it the node serves
 * work alone, which is right for the first miner of a new network and a fork of its own otherwise.
 */
import type {Logger} from "@xchain/utils";
import type {NetworkChoice} from "../network.ts";

/** What the warning reads. */
export interface AloneWarningFacts {
  network: NetworkChoice;
  chainId: number;
  /** `p2p.enabled`. */
  p2pEnabled: boolean;
  /** `p2p.bootnodes`. */
  bootnodes: readonly string[];
  /** `miner.allowSolo`. */
  allowSolo: boolean;
}

/** Logs the warning when `facts` describe a mainnet or testnet node with no bootnodes (or no p2p); true when it did. */
export function warnIfAlone(facts: AloneWarningFacts, logger: Logger): boolean {
  const {network, chainId, p2pEnabled, bootnodes, allowSolo} = facts;
  if (network !== "mainnet" && network !== "testnet") return false;
  if (p2pEnabled && bootnodes.length > 0) return false;
  const why = p2pEnabled ? "no bootnodes are configured" : "p2p is off (p2p.enabled = false)";
  const mining = allowSolo
    ? "miner.allowSolo is on, so mining work is served alone: right for the first miner of a new network, " +
      "a fork of its own if a network already exists"
    : "mining work is refused until it has seen a peer (miner.allowSolo = true mines alone)";
  logger.warn(
    {network, chainId, bootnodes: bootnodes.length, allowSolo},
    `${network} (chain id ${chainId}) is xchain's own ${network}, not Rootstock's: it has no public peers, ` +
      `and ${why}, so this node is alone on a chain of its own and will not sync; ${mining}. ` +
      "To join an xchain network, give its nodes: " +
      "--p2p.bootnodes /ip4/<host>/tcp/<port>/p2p/<peer id>,… (p2p.bootnodes in node.config.toml); " +
      "to launch one, see docs/running-a-network.md",
  );
  return true;
}
