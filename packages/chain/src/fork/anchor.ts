/**
 * The fork anchor (docs/architecture.md, "The forked chain"): the upstream block a forked chain
 * extends, stored like a genesis at its height F, and the first state of the fork (R₀) that the
 * blocks above it start from.
 */
import {type BlockHeader, REMASC_SENDER} from "@xchain/primitives";
import {forkBaseId, type InitialForkAccount, type StateBase, type StateCommit} from "@xchain/state";
import {bytesToPrefixedHex, equalBytes} from "@xchain/utils";
import {ChainError, ChainErrorCode} from "../errors.ts";

/** What identifies a fork: the upstream's chain id and its block F (the `meta.forkAnchor` record). */
export interface ForkAnchorId {
  /** The upstream's chain id (the base id commits to it, whatever chain id the fork signs with). */
  upstreamChainId: number;
  /** The fork block's hash as the upstream names it (H). */
  hash: Uint8Array;
  /** The fork block's number (F). */
  number: number;
}

/** A fork anchor ready to be stored: `buildForkAnchor`'s result. */
export interface ForkAnchor extends ForkAnchorId {
  /**
   * The fork block's header as stored at height F: the upstream's own for a Rootstock upstream (it
   * hashes to `hash`), a stand-in for an Ethereum upstream (its hash differs from `hash`).
   */
  header: BlockHeader;
  /** `forkBaseId(upstreamChainId, hash)`: the base every state of this fork is read over. */
  baseId: Uint8Array;
  /** R₀ and its trie writes: the marker leaf and the fork's initial accounts. */
  initialState: StateCommit;
}

/** What `buildForkAnchor` builds from. */
export interface ForkAnchorInput {
  upstreamChainId: number;
  header: BlockHeader;
  /** The upstream's hash of the fork block; default `header.hash()` (a Rootstock upstream). */
  hash?: Uint8Array;
  /** The upstream's state at the fork block; its id must be this fork's (`forkBaseId`). */
  base: StateBase;
  /** Accounts the fork starts with besides the REMASC sender (a dev wallet's funded accounts). */
  accounts?: Iterable<[address: Uint8Array, InitialForkAccount]>;
}

/** Where the fork's first state is computed (`StateDatabase.forkRoot`). */
export interface ForkRootSource {
  forkRoot(baseId: Uint8Array, accounts: Iterable<[Uint8Array, InitialForkAccount]>): Promise<StateCommit>;
}

/**
 * The anchor of a fork of `input.header` (nothing is written). R₀ holds the REMASC sender with
 * nonce F: block F+1's REMASC transaction carries nonce F (`createRemascTransaction`), whatever the
 * upstream counted (an Ethereum upstream's zero address has nonce 0); its balance and code stay the
 * base's.
 */
export async function buildForkAnchor(input: ForkAnchorInput, state: ForkRootSource): Promise<ForkAnchor> {
  const {upstreamChainId, header, base} = input;
  const hash = input.hash ?? header.hash();
  const baseId = forkBaseId(BigInt(upstreamChainId), hash);
  if (!equalBytes(base.id, baseId)) {
    throw new ChainError(
      {code: ChainErrorCode.FORK_MISMATCH, expected: bytesToPrefixedHex(baseId), stored: bytesToPrefixedHex(base.id)},
      `the state base ${bytesToPrefixedHex(base.id)} is not the state of block ${bytesToPrefixedHex(hash)} of chain id ${upstreamChainId}`,
    );
  }
  const sender = await base.account(REMASC_SENDER);
  const remascSender: InitialForkAccount = {
    nonce: BigInt(header.number),
    balance: sender?.balance ?? 0n,
    ...(sender ? {codeHash: sender.codeHash} : {}),
  };
  const accounts: [Uint8Array, InitialForkAccount][] = [[REMASC_SENDER, remascSender], ...(input.accounts ?? [])];
  const initialState = await state.forkRoot(baseId, accounts);
  return {upstreamChainId, hash, number: header.number, header, baseId, initialState};
}

/** Whether two anchors name the same fork (chain id, block hash and number). */
export function sameForkAnchor(a: ForkAnchorId, b: ForkAnchorId): boolean {
  return a.upstreamChainId === b.upstreamChainId && a.number === b.number && equalBytes(a.hash, b.hash);
}

/** How an anchor is named in messages: "block F (0x…) of chain id N". */
export function describeForkAnchor(anchor: ForkAnchorId): string {
  return `block ${anchor.number} (${bytesToPrefixedHex(anchor.hash)}) of chain id ${anchor.upstreamChainId}`;
}
