/**
 * Real libp2p hosts on 127.0.0.1 (port 0) for the network tests, a PeerScoring that records what
 * it is told, and waiting helpers. `stopAll()` (in afterEach) stops every host started here.
 */
import {generateKeyPair} from "@libp2p/crypto/keys";
import type {Chain} from "@xchain/chain";
import type {IpAddressOrRange, Logger} from "@xchain/utils";
import {P2PNetwork} from "../../src/network.ts";
import {defaultP2POptions, type P2POptions} from "../../src/options.ts";
import type {
  P2PChainView,
  PeerEvent,
  PeerId,
  PeerScoring,
  PeerScoringInfo,
  ReputationSummary,
} from "../../src/types.ts";
import {decodeOptions, NETWORK_ID, openChain} from "./chain.ts";

/** One `record` call. */
export interface RecordedEvent {
  peer: PeerId;
  address: string | undefined;
  event: PeerEvent;
}

/** Records events; bans the peer ids and addresses put in its sets (and peers reaching `banOn`). */
export class RecordingScoring implements PeerScoring {
  readonly events: RecordedEvent[] = [];
  readonly bannedPeers = new Set<string>();
  readonly bannedAddressSet = new Set<string>();

  constructor(private readonly banOn?: PeerEvent) {}

  record(peer: PeerId, address: string | undefined, event: PeerEvent): void {
    this.events.push({peer, address, event});
    if (event === this.banOn) this.bannedPeers.add(peer);
  }

  isBanned(peer: PeerId | undefined, address: string | undefined): boolean {
    return (
      (peer !== undefined && this.bannedPeers.has(peer)) ||
      (address !== undefined && this.bannedAddressSet.has(address))
    );
  }

  banAddress(target: IpAddressOrRange): void {
    this.bannedAddressSet.add(target.given);
  }

  unbanAddress(target: IpAddressOrRange): void {
    this.bannedAddressSet.delete(target.given);
  }

  bannedAddresses(): string[] {
    return [...this.bannedAddressSet];
  }

  peerList(): PeerScoringInfo[] {
    return [];
  }

  reputationSummary(): ReputationSummary {
    throw new Error("not used by the p2p tests");
  }

  clear(peerOrAddress: string): void {
    this.bannedPeers.delete(peerOrAddress);
    this.bannedAddressSet.delete(peerOrAddress);
  }

  /** The events recorded for a peer. */
  of(peer: PeerId): PeerEvent[] {
    return this.events.filter((e) => e.peer === peer).map((e) => e.event);
  }
}

export const TEST_TIMEOUT_MS = 1500;

export function testOptions(overrides: Partial<P2POptions> = {}): P2POptions {
  return {
    ...defaultP2POptions(0),
    host: "127.0.0.1",
    maxPeers: 10,
    requestTimeoutMs: TEST_TIMEOUT_MS,
    ...overrides,
  };
}

/** A started host and what it was started with. */
export interface TestHost {
  network: P2PNetwork;
  scoring: RecordingScoring;
  chain: P2PChainView;
}

const running: P2PNetwork[] = [];

export interface StartOptions {
  chain?: Chain | P2PChainView;
  scoring?: RecordingScoring;
  options?: Partial<P2POptions>;
  networkId?: number;
  logger?: Logger;
}

export async function startHost(start: StartOptions = {}): Promise<TestHost> {
  const chain = start.chain ?? (await openChain());
  const scoring = start.scoring ?? new RecordingScoring();
  const network = await P2PNetwork.start(testOptions(start.options), {
    privateKey: await generateKeyPair("secp256k1"),
    networkId: start.networkId ?? NETWORK_ID,
    decodeOptions,
    chain,
    scoring,
    ...(start.logger ? {logger: start.logger} : {}),
  });
  running.push(network);
  return {network, scoring, chain};
}

/** Stops every host started by `startHost` (afterEach). */
export async function stopAll(): Promise<void> {
  await Promise.all(running.splice(0).map((n) => n.stop()));
}

/** A chain view with another genesis hash (a peer of another network with the same network id). */
export function withGenesis(chain: P2PChainView, genesisHash: Uint8Array): P2PChainView {
  return {
    genesisHash,
    head: () => chain.head(),
    getHeader: (h) => chain.getHeader(h),
    getHeaderByNumber: (n) => chain.getHeaderByNumber(n),
    getBodyEncoding: (h) => chain.getBodyEncoding(h),
  };
}

/** Waits until `condition` holds (polling), or fails after `timeoutMs`: a bound on a hang, generous for a loaded machine. */
export async function waitFor(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Connects `from` to `to` and waits until both completed the handshake. */
export async function connect(from: TestHost, to: TestHost): Promise<void> {
  await from.network.connect(to.network.listenAddresses()[0] as string);
  await waitFor(
    () =>
      from.network.peers().some((p) => p.id === to.network.peerId) &&
      to.network.peers().some((p) => p.id === from.network.peerId),
    "the handshake",
  );
}
