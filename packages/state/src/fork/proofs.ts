/**
 * Checks an upstream's `eth_getProof` answer (EIP-1186, docs/protocol/proofs.md §1) against the fork block's
 * state root with @ethereumjs/mpt's verifier: the account proof along keccak256(address) must lead from
 * `stateRoot` to the RLP `[nonce, balance, storageRoot, codeHash]` the answer reports (or prove the account
 * absent, with the empty account reported), and each storage proof along keccak256(slot) must lead from that
 * storage root to the reported value. Anything else is a `ProofMismatch`: the value is refused. The walk is
 * provenTries.ts's (@ethereumjs/mpt's, with the nodes of earlier proofs of the same root kept).
 */
import {RLP} from "@ethereumjs/rlp";
import {bytesToBigInt, equalBytes, keccak256, toData} from "@xchain/utils";
import {EMPTY_CODE_HASH, EMPTY_TRIE_ROOT} from "../trie.ts";
import {AnswerError, data, quantity, storageWord} from "./answers.ts";
import {provenByProof} from "./provenTries.ts";

/** An account as the fork reads it. */
export interface ForkAccount {
  nonce: bigint;
  balance: bigint;
  codeHash: Uint8Array;
  /** The storage trie's root (known from a proof; undefined when read without one). */
  storageRoot: Uint8Array | undefined;
}

/** A proof that does not prove what the answer says. */
export class ProofMismatch extends Error {}

/**
 * The account of an `eth_getProof` answer, once its proof verifies against `stateRoot`. `proven` is the
 * account as a proof against the same root already proved it, if one did: an answer reporting exactly that
 * account is not walked again (its slots' proofs are checked against that proven storage root all the same);
 * one reporting anything else is checked in full.
 */
export async function verifiedAccount(
  stateRoot: Uint8Array,
  address: Uint8Array,
  answer: unknown,
  proven?: ForkAccount,
): Promise<ForkAccount> {
  const proof = answerField(answer, "accountProof");
  const reported: ForkAccount = {
    nonce: quantity(answerField(answer, "nonce"), "the proof's nonce"),
    balance: quantity(answerField(answer, "balance"), "the proof's balance"),
    codeHash: data(answerField(answer, "codeHash"), "the proof's codeHash", 32),
    storageRoot: data(answerField(answer, "storageHash"), "the proof's storageHash", 32),
  };
  if (proven?.storageRoot !== undefined && differingField(proven, reported) === undefined) return proven;
  const leaf = await provenValue(stateRoot, keccak256(address), proofNodes(proof, "accountProof"), "the account");
  const account: ForkAccount =
    leaf === null
      ? {nonce: 0n, balance: 0n, codeHash: EMPTY_CODE_HASH, storageRoot: EMPTY_TRIE_ROOT}
      : decodeAccount(leaf);
  const field = differingField(account, reported);
  if (field !== undefined) {
    throw new ProofMismatch(
      `the answer's ${field} is ${show(reported[field])} but the proof proves ${show(account[field])}`,
    );
  }
  return account;
}

/** The first field in which `a` and `b` differ, if any. */
function differingField(a: ForkAccount, b: ForkAccount): keyof ForkAccount | undefined {
  for (const field of ["nonce", "balance", "codeHash", "storageRoot"] as const) {
    const x = a[field];
    const y = b[field];
    const same =
      typeof x === "bigint"
        ? x === y
        : x !== undefined && y !== undefined && equalBytes(x as Uint8Array, y as Uint8Array);
    if (!same) return field;
  }
  return undefined;
}

/** The 32-byte value of the storage proof for `slot` in an `eth_getProof` answer, once it verifies against `storageRoot`. */
export async function verifiedSlot(storageRoot: Uint8Array, slot: Uint8Array, answer: unknown): Promise<Uint8Array> {
  const entries = answerField(answer, "storageProof");
  const entry = Array.isArray(entries) && entries.length === 1 ? (entries[0] as Record<string, unknown>) : undefined;
  if (typeof entry !== "object" || entry === null) {
    throw new AnswerError(`the proof's storageProof is not one entry: ${JSON.stringify(entries)?.slice(0, 100)}`);
  }
  const reported = storageWord(entry.value, "the storage proof's value");
  const leaf = await provenValue(storageRoot, keccak256(slot), proofNodes(entry.proof, "storage proof"), "the slot");
  const proven = storageWord(leaf === null ? "0x0" : toData(RLP.decode(leaf) as Uint8Array), "the proven value");
  if (!equalBytes(proven, reported)) {
    throw new ProofMismatch(`the answer's value is ${toData(reported)} but the proof proves ${toData(proven)}`);
  }
  return proven;
}

async function provenValue(
  root: Uint8Array,
  key: Uint8Array,
  proof: Uint8Array[],
  what: string,
): Promise<Uint8Array | null> {
  // The empty trie has no node to prove anything with: xchain and geth answer `[]` (the verifier refuses it).
  if (proof.length === 0 && equalBytes(root, EMPTY_TRIE_ROOT)) return null;
  try {
    return await provenByProof(root, key, proof);
  } catch {
    throw new ProofMismatch(`the proof of ${what} does not lead from the root ${toData(root)}`);
  }
}

function decodeAccount(leaf: Uint8Array): ForkAccount {
  const fields = RLP.decode(leaf);
  if (!Array.isArray(fields) || fields.length !== 4 || fields.some((f) => !(f instanceof Uint8Array))) {
    throw new ProofMismatch("the proven account is not RLP [nonce, balance, storageRoot, codeHash]");
  }
  const [nonce, balance, storageRoot, codeHash] = fields as Uint8Array[];
  return {
    nonce: bytesToBigInt(nonce as Uint8Array),
    balance: bytesToBigInt(balance as Uint8Array),
    storageRoot: storageRoot as Uint8Array,
    codeHash: codeHash as Uint8Array,
  };
}

function answerField(answer: unknown, field: string): unknown {
  if (typeof answer !== "object" || answer === null) throw new AnswerError("the proof is not an object");
  return (answer as Record<string, unknown>)[field];
}

function proofNodes(value: unknown, what: string): Uint8Array[] {
  if (!Array.isArray(value)) throw new AnswerError(`the ${what} is not an array of nodes`);
  return value.map((node, i) => data(node, `node ${i} of the ${what}`));
}

function show(value: bigint | Uint8Array | undefined): string {
  return value instanceof Uint8Array ? toData(value) : String(value);
}
