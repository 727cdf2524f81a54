/**
 * The rules of a forked chain (docs/forking.md §4): regtest's, above an upstream's block F, with the
 * chain id of the upstream (or the one the fork is told to sign with) and three adjustments: the block
 * right after F is mined at the minimum difficulty (`forkBlockNumber`, read by consensus's
 * `calculateDifficulty`), RSKIP-110 (fork-detection data, which needs 449 ancestors with Bitcoin
 * headers) is off, and the header encoding heights (RSKIP-92, RSKIP-UMM) are the upstream network's,
 * so that the anchor header rebuilt from the upstream's block hashes as the upstream hashes it.
 */
import {Chainspec} from "./chainspec.ts";
import {mainnet} from "./networks/mainnet.ts";
import {regtest} from "./networks/regtest.ts";
import {testnet} from "./networks/testnet.ts";
import type {NetworkParams} from "./types.ts";

/** What a fork's chainspec is built from. */
export interface ForkChainspecInput {
  /** The upstream's chain id (`eth_chainId`): its header encoding heights, and the fork's chain id by default. */
  upstreamChainId: number;
  /** The fork block's number F. */
  forkBlockNumber: number;
  /** The chain id the fork signs with instead of the upstream's (`fork.chainId`). */
  chainId?: number;
}

/** The public Rootstock networks whose header encoding differs from regtest's, by chain id. */
const UPSTREAM_ENCODING: Record<number, NetworkParams> = {[mainnet.chainId]: mainnet, [testnet.chainId]: testnet};

/** The chainspec of a fork of block `forkBlockNumber` of the chain `upstreamChainId`. */
export function forkChainspec({upstreamChainId, forkBlockNumber, chainId}: ForkChainspecInput): Chainspec {
  const encoding = UPSTREAM_ENCODING[upstreamChainId] ?? regtest;
  return new Chainspec({
    ...regtest,
    name: "fork",
    chainId: chainId ?? upstreamChainId,
    forkBlockNumber,
    activation: {
      ...regtest.activation,
      RSKIP92: encoding.activation.RSKIP92,
      RSKIPUMM: encoding.activation.RSKIPUMM,
      RSKIP110: -1,
    },
  });
}
