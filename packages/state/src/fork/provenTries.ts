/**
 * Merkle proofs checked against a root with the nodes of the earlier proofs of that root kept
 * (docs/forking.md §1.4): the proofs of an account's slots share their upper nodes, as the accounts'
 * proofs share the state trie's, and a node kept is neither hashed nor stored again. The check is
 * @ethereumjs/mpt's, as its `verifyMerkleProof`'s: the proof's first node must hash to the root, then the
 * trie is walked from the root through nodes stored by their keccak256. A node is only ever found under
 * its own hash, so what the walk reaches is in the trie of that root, whichever proof brought the node.
 */
import {MerklePatriciaTrie, updateMPTFromMerkleProof} from "@ethereumjs/mpt";
import {bytesToHex, equalBytes, keccak256} from "@xchain/utils";
import {LRUCache} from "lru-cache";

/** The nodes kept over all roots (each about 1.5 KiB at most, with its hex). */
const MAX_NODES = 8192;

/** The trie of one root as far as proofs have shown it. */
interface ProofTrie {
  trie: MerklePatriciaTrie;
  /** The nodes stored in it (hex). */
  nodes: Set<string>;
  /** The root's node (hex), checked to hash to the root once. */
  rootNode: string;
}

const tries = new LRUCache<string, ProofTrie>({maxSize: MAX_NODES, sizeCalculation: (t) => t.nodes.size + 1});

/**
 * The value under `key` that `proof` proves in the trie of `root` (null: proven absent). Throws when it
 * proves nothing: its first node is not the root's, or the walk meets a node the proofs did not give.
 */
export async function provenByProof(
  root: Uint8Array,
  key: Uint8Array,
  proof: Uint8Array[],
): Promise<Uint8Array | null> {
  const first = proof[0];
  if (first === undefined) throw new Error("the proof has no node");
  const rootHex = bytesToHex(root);
  const firstHex = bytesToHex(first);
  let entry = tries.get(rootHex);
  if (firstHex !== entry?.rootNode && !equalBytes(keccak256(first), root)) {
    throw new Error("the proof's first node is not the root's");
  }
  entry ??= {trie: new MerklePatriciaTrie({root}), nodes: new Set(), rootNode: firstHex};
  const fresh: Uint8Array[] = [];
  const freshHex: string[] = [];
  proof.forEach((node, i) => {
    const hex = i === 0 ? firstHex : bytesToHex(node);
    if (!entry.nodes.has(hex)) {
      fresh.push(node);
      freshHex.push(hex);
    }
  });
  if (fresh.length > 0) {
    await updateMPTFromMerkleProof(entry.trie, fresh);
    for (const hex of freshHex) entry.nodes.add(hex);
    tries.set(rootHex, entry);
  }
  return entry.trie.get(key, true);
}
