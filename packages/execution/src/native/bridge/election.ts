/**
 * An election of an ABI call by a set of authorizers (docs/protocol/native-contracts.md §10.12),
 * rskj's `ABICallElection` and its storage form (`BridgeSerializationUtils.serializeElection`):
 * each call spec (a function name and its arguments as bytes) with the authorizers who voted for
 * it. A spec wins when its voters reach the authorizer's required count.
 */
import {RLP} from "@ethereumjs/rlp";
import type {BridgeAuthorizer} from "@xchain/chainspec";
import {bytesToHex, compareBytes, concatBytes, equalBytes, utf8ToBytes} from "@xchain/utils";
import {corrupt} from "./serialization.ts";

/** rskj's `ABICallSpec`: a function name and its arguments, each already encoded. */
export interface AbiCallSpec {
  readonly fn: string;
  readonly args: readonly Uint8Array[];
}

interface SpecVotes {
  readonly spec: AbiCallSpec;
  readonly voters: Uint8Array[];
}

/** `AddressBasedAuthorizer.getRequiredAuthorizedAddresses`: 1, or ⌊n/2⌋+1 of its distinct addresses. */
export function requiredVotes(authorizer: BridgeAuthorizer): number {
  if (authorizer.required === "one") return 1;
  const distinct = new Set(authorizer.addresses.map((address) => bytesToHex(address)));
  return Math.floor(distinct.size / 2) + 1;
}

const isAuthorizedAddress = (authorizer: BridgeAuthorizer, voter: Uint8Array): boolean =>
  authorizer.addresses.some((address) => equalBytes(address, voter));

const sameSpec = (a: AbiCallSpec, b: AbiCallSpec): boolean =>
  a.fn === b.fn &&
  a.args.length === b.args.length &&
  a.args.every((arg, i) => equalBytes(arg, b.args[i] as Uint8Array));

/** `ABICallSpec.getEncoded`: the name's UTF-8 followed by the arguments. */
const encodedSpec = (spec: AbiCallSpec): Uint8Array => concatBytes(utf8ToBytes(spec.fn), ...spec.args);

/** Guava's `SignedBytes.lexicographicalComparator`: bytes compared as signed, a prefix first. */
function compareSignedBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = (((a[i] as number) << 24) >> 24) - (((b[i] as number) << 24) >> 24);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

export class AbiCallElection {
  private constructor(
    private readonly authorizer: BridgeAuthorizer,
    private votes: SpecVotes[],
  ) {}

  /**
   * `deserializeElection`: an empty value is an empty election; otherwise a list of spec, voters
   * pairs, each spec `[name, [args…]]` and the voters 20-byte addresses, every one an authorizer's
   * (rskj throws `UnauthorizedVoterException` for another, failing the call).
   */
  static decode(name: string, value: Uint8Array, authorizer: BridgeAuthorizer): AbiCallElection {
    const election = new AbiCallElection(authorizer, []);
    if (value.length === 0) return election;
    let decoded: unknown;
    try {
      decoded = RLP.decode(value);
    } catch (e) {
      throw corrupt(name, value, (e as Error).message);
    }
    if (!Array.isArray(decoded) || decoded.length % 2 !== 0) {
      throw corrupt(name, value, "not a list of spec, voters pairs");
    }
    for (let i = 0; i < decoded.length; i += 2) {
      const [spec, voters] = [decoded[i], decoded[i + 1]];
      const [fn, args] = Array.isArray(spec) && spec.length === 2 ? spec : [];
      const validSpec = fn instanceof Uint8Array && Array.isArray(args) && args.every((a) => a instanceof Uint8Array);
      if (!validSpec) throw corrupt(name, value, "a call spec that is not [name, [arguments]]");
      if (!Array.isArray(voters) || !voters.every((v) => v instanceof Uint8Array && v.length === 20)) {
        throw corrupt(name, value, "voters that are not 20-byte addresses");
      }
      if (!voters.every((voter) => isAuthorizedAddress(authorizer, voter))) {
        throw corrupt(name, value, "a voter that is not an authorizer");
      }
      const entry = {spec: {fn: new TextDecoder().decode(fn), args: args as Uint8Array[]}, voters};
      // rskj reads the pairs into a map: a repeated spec keeps its last voters.
      election.votes = election.votes.filter((v) => !sameSpec(v.spec, entry.spec));
      election.votes.push(entry);
    }
    return election;
  }

  /** `serializeElection`: specs by their encoding's signed bytes, each spec's voters by unsigned bytes. */
  encode(): Uint8Array {
    const sorted = [...this.votes].sort((a, b) => compareSignedBytes(encodedSpec(a.spec), encodedSpec(b.spec)));
    return RLP.encode(
      sorted.flatMap(({spec, voters}) => [[utf8ToBytes(spec.fn), [...spec.args]], [...voters].sort(compareBytes)]),
    );
  }

  /** `vote`: false for a voter who is not an authorizer or already voted for this spec. */
  vote(spec: AbiCallSpec, voter: Uint8Array): boolean {
    if (!isAuthorizedAddress(this.authorizer, voter)) return false;
    let entry = this.votes.find((v) => sameSpec(v.spec, spec));
    if (!entry) {
      entry = {spec, voters: []};
      this.votes.push(entry);
    }
    if (entry.voters.some((v) => equalBytes(v, voter))) return false;
    entry.voters.push(voter);
    return true;
  }

  /** `getWinner`: a spec with enough votes (after each win the election is cleared, so at most one). */
  winner(): AbiCallSpec | undefined {
    const required = requiredVotes(this.authorizer);
    return this.votes.find((v) => v.voters.length >= required)?.spec;
  }

  clear(): void {
    this.votes = [];
  }
}
