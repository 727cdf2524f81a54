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

/**
 * The rules of a fork of block `forkBlockNumber` of the chain `upstreamChainId`. F is the only rule
 * that moves: a re-anchor onto another fork block (anvil_reset with `forking`, docs/forking.md §8)
 * moves it with `moveForkBlock`, so that the first block above the new anchor is the one mined at
 * the minimum difficulty, as after a restart on that anchor.
 */
export class ForkChainspec extends Chainspec {
  private readonly anchor: {number: number};

  constructor({upstreamChainId, forkBlockNumber, chainId}: ForkChainspecInput) {
    const encoding = UPSTREAM_ENCODING[upstreamChainId] ?? regtest;
    const anchor = {number: forkBlockNumber};
    super({
      ...regtest,
      name: "fork",
      chainId: chainId ?? upstreamChainId,
      get forkBlockNumber() {
        return anchor.number;
      },
      activation: {
        ...regtest.activation,
        RSKIP92: encoding.activation.RSKIP92,
        RSKIPUMM: encoding.activation.RSKIPUMM,
        RSKIP110: -1,
      },
    });
    this.anchor = anchor;
  }

  /** The fork block is `number` from now on (the chain was re-anchored there). */
  moveForkBlock(number: number): void {
    this.anchor.number = number;
  }
}

/** The chainspec of a fork of block `forkBlockNumber` of the chain `upstreamChainId`. */
export function forkChainspec(input: ForkChainspecInput): ForkChainspec {
  return new ForkChainspec(input);
}
