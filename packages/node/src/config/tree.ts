/** Reading, writing and merging option trees by dotted key (`rpc.http.port`). */

/** A plain options object (nested tables); leaves are values, arrays and byte strings. */
export type OptionTree = {[key: string]: unknown};

/** True for a nested table, false for a leaf (arrays, bytes, primitives). */
export function isTable(value: unknown): value is OptionTree {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

/** The value at `key`, or undefined when a table on the way is missing. */
export function getPath(tree: object, key: string): unknown {
  let node: unknown = tree;
  for (const part of key.split(".")) {
    if (!isTable(node)) return undefined;
    node = node[part];
  }
  return node;
}

/** Sets the value at `key`, creating the tables on the way. */
export function setPath(tree: OptionTree, key: string, value: unknown): void {
  const parts = key.split(".");
  const last = parts.pop() as string;
  let node = tree;
  for (const part of parts) {
    const next = node[part];
    node[part] = isTable(next) ? next : {};
    node = node[part] as OptionTree;
  }
  node[last] = value;
}

/** `base` with every leaf of `override` written over it (tables merged, leaves replaced); neither is changed. */
export function mergeTrees<T extends object>(base: T, override: object): T {
  const out = {...base} as OptionTree;
  for (const [key, value] of Object.entries(override)) {
    const current = out[key];
    out[key] = isTable(value) && isTable(current) ? mergeTrees(current, value) : value;
  }
  return out as T;
}
