/**
 * Why a bootnode is not connected, in words an operator can act on (docs/p2p.md, "Bootnodes"): the
 * dial's error from libp2p (a refused or unreachable address, a timeout, a peer id that does not match
 * the one the Noise handshake found) or the status handshake's verdict (another network).
 */

/** What went wrong; `detail` says it in words. */
export type BootnodeFailureKind =
  | "refused"
  | "unreachable"
  | "timed out"
  | "peer id mismatch"
  | "wrong network"
  | "handshake failed"
  | "denied"
  | "dial failed";

export interface BootnodeFailure {
  kind: BootnodeFailureKind;
  detail: string;
  /** The peer id that answered at the bootnode's address (a peer id mismatch). */
  foundPeerId?: string;
}

const UNREACHABLE = new Set(["EHOSTUNREACH", "ENETUNREACH", "EHOSTDOWN", "EADDRNOTAVAIL", "ENOTFOUND", "EAI_AGAIN"]);

// @chainsafe/libp2p-noise's UnexpectedPeerError (wrapped by libp2p's upgrader in an
// EncryptionFailedError that keeps the message): "Payload identity key <found> does not match
// expected remote identity key <expected>". A secp256k1 key prints as its peer id.
const PEER_ID_MISMATCH = /Payload identity key (\w+) does not match expected remote identity key/;

/** What a failed dial of a bootnode means. */
export function dialFailureOf(error: unknown): BootnodeFailure {
  const causes = errorChain(error);
  for (const e of causes) {
    const mismatch = PEER_ID_MISMATCH.exec(e.message);
    if (mismatch) {
      const found = mismatch[1] as string;
      return {kind: "peer id mismatch", detail: `the node at that address has peer id ${found}`, foundPeerId: found};
    }
  }
  for (const e of causes) {
    const code = (e as {code?: unknown}).code;
    if (code === "ECONNREFUSED") return {kind: "refused", detail: "connection refused (nothing listens on that port)"};
    if (typeof code === "string" && UNREACHABLE.has(code))
      return {kind: "unreachable", detail: `unreachable (${code})`};
    if (code === "ETIMEDOUT" || e.name === "TimeoutError" || e.name === "AbortError") {
      return {kind: "timed out", detail: "the connection timed out"};
    }
    if (e.name === "DialDeniedError" || e.name === "ConnectionInterceptedError") {
      return {kind: "denied", detail: "refused by this node (the bootnode is banned)"};
    }
  }
  const first = causes[0];
  return {kind: "dial failed", detail: first ? `${first.name}: ${first.message}` : String(error)};
}

/**
 * What identifies a failure for the "one warning per cause" rule: the kind, and for a peer id mismatch the peer
 * id found. Not the detail, which varies between failures of one cause (a handshake cut short is "stream reset"
 * once and "stream closed" the next time).
 */
export function failureKey(failure: BootnodeFailure): string {
  return failure.foundPeerId === undefined ? failure.kind : `${failure.kind}:${failure.foundPeerId}`;
}

/** The error, the errors of an AggregateError and the causes, depth first (at most 16). */
function errorChain(error: unknown): Error[] {
  const found: Error[] = [];
  const visit = (e: unknown): void => {
    if (!(e instanceof Error) || found.length >= 16 || found.includes(e)) return;
    found.push(e);
    if (e instanceof AggregateError) for (const inner of e.errors) visit(inner);
    visit(e.cause);
  };
  visit(error);
  return found;
}
