/**
 * The fuzz corpus of the RPC walk: edge values for any parameter position (huge quantities, wrong
 * types, odd hex, long strings, deep nesting) and objects with every known member set to them.
 * Generated, deterministic, and serialized by `toRequestText`, which can also write number
 * literals JavaScript cannot hold (2^256, 1e400).
 */

/** A JSON number literal written verbatim into the request text. */
export class RawNumber {
  constructor(readonly text: string) {}
}

const raw = (text: string) => new RawNumber(text);

/** Nests `leaf` `depth` levels deep in arrays, or in objects under `key`. */
function nest(depth: number, leaf: unknown, key?: string): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = key === undefined ? [value] : {[key]: value};
  return value;
}

/** Deep enough to reach a parameter codec under the default maxJsonDepth (64: the request and params take two). */
const DEEP = 60;

const HUGE: unknown[] = [
  `0x${"f".repeat(64)}`,
  `0x${"f".repeat(65)}`,
  `0x1${"0".repeat(64)}`,
  "0x8000000000000000",
  "0x10000000000000000",
  "0x1fffffffffffff",
  "0x20000000000000",
  "0x7fffffff",
  "0xffffffff",
  raw((1n << 256n).toString()),
  raw("9007199254740993"),
  raw("1e400"),
  raw("-1e400"),
  -1,
  1e308,
  Number.MAX_SAFE_INTEGER,
];

const WRONG_TYPES: unknown[] = [
  null,
  true,
  false,
  0,
  1,
  1.5,
  {},
  [],
  "",
  "0x",
  "0xg",
  "latest",
  "pending",
  "earliest",
  "safe",
  "finalized",
];

const ODD_HEX: unknown[] = [
  "0x0",
  "0x00",
  "0X1",
  `0x${"0".repeat(1000)}`,
  "0x123",
  "0xabc",
  "0x-1",
  " 0x1",
  "1",
  "deadbeef",
  `0x${"00".repeat(20)}`,
  `0x${"ff".repeat(20)}`,
  `0x${"00".repeat(32)}`,
  `0x${"ab".repeat(33)}`,
];

/** RLP and Bitcoin serializations at their edges (raw transactions, mnr_* blocks). */
const ODD_BYTES: unknown[] = [
  "0x80",
  "0xc0",
  "0xf9ffff",
  "0xbf0000000000000001",
  `0x${"c1".repeat(40)}c0`,
  // A nine-item list whose integers are 33 bytes long.
  `0xf90132${`a1${"ff".repeat(33)}`.repeat(9)}`,
  `0x${"00".repeat(80)}ff${"ff".repeat(8)}`,
  `0x${"ff".repeat(100)}`,
];

const STRINGS: unknown[] = [
  "a".repeat(65_536),
  `0x${"ab".repeat(32_768)}`,
  "\u0000",
  "💥",
  "0x💥",
  "__proto__",
  "constructor",
];

const NESTED: unknown[] = [
  nest(DEEP, "latest"),
  nest(DEEP, `0x${"f".repeat(64)}`, "blockHash"),
  nest(DEEP, null, "from"),
  [[["latest"]], {to: [{}]}],
];

/** Every edge value, for any parameter position. */
export const EDGE_VALUES: readonly unknown[] = [
  ...HUGE,
  ...WRONG_TYPES,
  ...ODD_HEX,
  ...ODD_BYTES,
  ...STRINGS,
  ...NESTED,
];

/** Members of the call, filter and block-reference objects (docs/rpc.md §4.3–§4.5). */
const OBJECT_KEYS = [
  "from",
  "to",
  "gas",
  "gasPrice",
  "value",
  "data",
  "input",
  "nonce",
  "blockHash",
  "blockhash",
  "blockNumber",
  "requireCanonical",
  "fromBlock",
  "toBlock",
  "address",
  "topics",
] as const;

/** The values each member is set to one at a time (the full corpus goes into "every member at once"). */
const MEMBER_VALUES: readonly unknown[] = [
  ...HUGE.slice(0, 5),
  raw((1n << 256n).toString()),
  raw("1e400"),
  -1,
  null,
  true,
  {},
  [],
  "",
  "0x",
  "0xg",
  "latest",
  "0X1",
  "0x123",
  `0x${"00".repeat(20)}`,
  `0x${"ab".repeat(33)}`,
  nest(8, "0x1"),
];

const TOPIC = `0x${"11".repeat(32)}`;

/** Objects for a position that takes one: `base` with one member, every member, or odd topics and addresses. */
export function objectVariants(base: Record<string, unknown>): unknown[] {
  const variants: unknown[] = [];
  for (const key of OBJECT_KEYS) for (const value of MEMBER_VALUES) variants.push({...base, [key]: value});
  for (const value of EDGE_VALUES) variants.push(Object.fromEntries(OBJECT_KEYS.map((key) => [key, value])));
  variants.push(
    {...base, topics: [null, null, null, null, null]},
    {...base, topics: [[TOPIC, [TOPIC]]]},
    {...base, topics: [null, [TOPIC, "0x1"]]},
    {...base, topics: nest(DEEP, TOPIC)},
    {...base, address: Array.from({length: 1000}, (_, i) => `0x${i.toString(16).padStart(40, "0")}`)},
    {...base, address: [`0x${"00".repeat(20)}`, null]},
    JSON.parse('{"__proto__": {"to": "0x1"}, "constructor": 1, "toString": 2, "hasOwnProperty": 3}'),
    {...base, data: "0x00", input: "0x01"},
    {...base, blockHash: TOPIC, fromBlock: "latest"},
    {...base, blockHash: TOPIC, blockNumber: "0x0"},
  );
  return variants;
}

/** The text of one request; `RawNumber`s are written as their literal. */
export function toRequestText(method: string, params: readonly unknown[]): string {
  const literals: string[] = [];
  const text = JSON.stringify({jsonrpc: "2.0", id: 1, method, params}, (_key, value) => {
    if (!(value instanceof RawNumber)) return value;
    literals.push(value.text);
    return `@@raw${literals.length - 1}@@`;
  });
  return text.replace(/"@@raw(\d+)@@"/g, (_match, i: string) => literals[Number(i)] as string);
}

/** How a parameter list reads in a failure message (long values cut). */
export function describeParams(params: readonly unknown[]): string {
  const text = toRequestText("", params);
  const shown = text.slice(text.indexOf('"params":') + 9, -1);
  return shown.length > 200 ? `${shown.slice(0, 200)}…` : shown;
}
