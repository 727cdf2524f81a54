/**
 * The transaction and receipt roots: Ethereum ordered tries (key RLP(index)), not rskj's Unitrie
 * (docs/protocol/README.md §2). The trie is built bottom-up in one pass, hashing each node once; the
 * tests check it against @ethereumjs/mpt, which inserting key by key re-hashes every path and
 * cost about 9 ms per 100-transaction trie.
 */
import {encodeRlp, encodeUnsigned, type Receipt, type RlpItem, type Transaction} from "@xchain/primitives";
import {keccak256} from "@xchain/utils";

const EMPTY = new Uint8Array(0);

function nibblesOf(key: Uint8Array): number[] {
  const out: number[] = [];
  for (const byte of key) out.push(byte >> 4, byte & 15);
  return out;
}

// Hex-prefix encoding of a node's path (Ethereum yellow paper, appendix C).
function hexPrefix(path: number[], leaf: boolean): Uint8Array {
  const odd = path.length % 2;
  const out = new Uint8Array(1 + (path.length >> 1));
  out[0] = (((leaf ? 2 : 0) + odd) << 4) | (odd ? (path[0] as number) : 0);
  for (let i = odd, j = 1; i < path.length; i += 2, j++) out[j] = ((path[i] as number) << 4) | (path[i + 1] as number);
  return out;
}

type Entry = [path: number[], value: Uint8Array];

// A child is embedded when its encoding is shorter than 32 bytes, referenced by hash otherwise.
function reference(node: RlpItem): RlpItem {
  const encoded = encodeRlp(node);
  return encoded.length < 32 ? node : keccak256(encoded);
}

/** A key whose path is collected while building: the nodes on it, deepest first. */
interface ProofPath {
  target: number[];
  nodes: RlpItem[];
}

function visit(node: RlpItem, path: ProofPath | undefined): RlpItem {
  path?.nodes.push(node);
  return node;
}

// `entries` are sorted, distinct, and share their first `depth` nibbles. `path` is given only
// while its key is among `entries`, so each node built with it lies on that key's path.
function build(entries: Entry[], depth: number, path?: ProofPath): RlpItem {
  const first = entries[0] as Entry;
  if (entries.length === 1) return visit([hexPrefix(first[0].slice(depth), true), first[1]], path);
  const last = entries[entries.length - 1] as Entry;
  let shared = 0;
  while (depth + shared < first[0].length && first[0][depth + shared] === last[0][depth + shared]) shared++;
  if (shared > 0)
    return visit(
      [hexPrefix(first[0].slice(depth, depth + shared), false), reference(build(entries, depth + shared, path))],
      path,
    );
  const branch: RlpItem[] = new Array(17).fill(EMPTY);
  let start = first[0].length === depth ? 1 : 0;
  if (start === 1) branch[16] = first[1];
  while (start < entries.length) {
    const nibble = (entries[start] as Entry)[0][depth] as number;
    let end = start + 1;
    while (end < entries.length && (entries[end] as Entry)[0][depth] === nibble) end++;
    const onPath = path !== undefined && path.target[depth] === nibble;
    branch[nibble] = reference(build(entries.slice(start, end), depth + 1, onPath ? path : undefined));
    start = end;
  }
  return visit(branch, path);
}

function compareNibbles(a: Entry, b: Entry): number {
  const [x, y] = [a[0], b[0]];
  for (let i = 0; i < x.length && i < y.length; i++) if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
  return x.length - y.length;
}

function keyOf(index: number): number[] {
  return nibblesOf(encodeRlp(encodeUnsigned(BigInt(index))));
}

function sortedEntries(values: readonly Uint8Array[]): Entry[] {
  const entries = values.map((value, i): Entry => [keyOf(i), value]);
  return entries.sort(compareNibbles);
}

/** The root of the trie mapping RLP(i) to `values[i]`. */
export function orderedTrieRoot(values: readonly Uint8Array[]): Uint8Array {
  if (values.length === 0) return keccak256(encodeRlp(EMPTY));
  return keccak256(encodeRlp(build(sortedEntries(values), 0)));
}

/**
 * The nodes (RLP, root first) of the same trie on the path RLP(index), `index` below
 * `values.length`: a proof of `values[index]` against `orderedTrieRoot(values)`. Nodes embedded in
 * their parent are not listed apart (docs/protocol/proofs.md §2).
 */
export function orderedTrieProof(values: readonly Uint8Array[], index: number): Uint8Array[] {
  if (!Number.isInteger(index) || index < 0 || index >= values.length) throw new RangeError(`no value at ${index}`);
  const path: ProofPath = {target: keyOf(index), nodes: []};
  build(sortedEntries(values), 0, path);
  return path.nodes
    .reverse()
    .map((node) => encodeRlp(node))
    .filter((encoded, i) => i === 0 || encoded.length >= 32);
}

/** The transactions root over each transaction's nine elements as received (the block body's encoding). */
export function transactionsRoot(transactions: readonly Transaction[]): Uint8Array {
  return orderedTrieRoot(transactions.map((tx) => encodeRlp([...tx.receivedFields])));
}

/** The receipts root over the 6-field receipt encodings. */
export function receiptsRoot(receipts: readonly Receipt[]): Uint8Array {
  return orderedTrieRoot(receipts.map((receipt) => receipt.encode()));
}

/** The receipts trie's nodes (RLP, root first) on the path of receipt `index` (docs/protocol/proofs.md §2). */
export function receiptProof(receipts: readonly Receipt[], index: number): Uint8Array[] {
  return orderedTrieProof(
    receipts.map((receipt) => receipt.encode()),
    index,
  );
}
