/**
 * The flat state's record of what it holds (bucket `flatState`, empty key): the state root its entries
 * describe, whether they are complete, and how far the generation went. Written in the batch of every
 * change of the entries, so the entries always describe this root up to the marker (docs/operations.md §13).
 */
import {Bucket, type KeyValueStore} from "@xchain/db";
import {bytesToPrefixedHex, equalBytes} from "@xchain/utils";

/** The key of the meta record in the `flatState` bucket: the empty key sorts before every entry. */
export const FLAT_META_KEY = new Uint8Array(0);

export interface FlatMeta {
  /** The state root the entries describe. */
  root: Uint8Array;
  /** Every entry of that state is present and no other: readers may use it. */
  complete: boolean;
  /**
   * While generating: the last key generated (32-byte account or 64-byte storage key); the entries
   * up to it are exact, the ones after it are not. Undefined: nothing generated yet.
   */
  marker: Uint8Array | undefined;
}

const COMPLETE = 1;
const GENERATING = 0;

/** root (32) || 1 complete, 0 generating || marker (0, 32 or 64 bytes). */
export function encodeFlatMeta(meta: FlatMeta): Uint8Array {
  const marker = meta.complete ? undefined : meta.marker;
  const bytes = new Uint8Array(33 + (marker?.length ?? 0));
  bytes.set(meta.root);
  bytes[32] = meta.complete ? COMPLETE : GENERATING;
  if (marker !== undefined) bytes.set(marker, 33);
  return bytes;
}

/** The meta record, or undefined for a record of another shape (read as no flat state: it is generated again). */
export function decodeFlatMeta(bytes: Uint8Array | undefined): FlatMeta | undefined {
  if (bytes === undefined || bytes.length < 33) return undefined;
  const flag = bytes[32];
  const markerLength = bytes.length - 33;
  if (flag === COMPLETE && markerLength === 0) return {root: bytes.slice(0, 32), complete: true, marker: undefined};
  if (flag !== GENERATING || ![0, 32, 64].includes(markerLength)) return undefined;
  return {root: bytes.slice(0, 32), complete: false, marker: markerLength === 0 ? undefined : bytes.slice(33)};
}

/** Whether the record `bytes` says the entries are complete for `root` (the readers' check, without decoding). */
export function completeAt(bytes: Uint8Array | undefined, root: Uint8Array): boolean {
  return (
    bytes !== undefined && bytes.length === 33 && bytes[32] === COMPLETE && equalBytes(bytes.subarray(0, 32), root)
  );
}

/**
 * Whether the record `bytes` describes a root other than `root`: the head moved on, and a reader at
 * `root` is unlikely to be served again. No record yet (a generation about to start) is not another root.
 */
export function describesOther(bytes: Uint8Array | undefined, root: Uint8Array): boolean {
  return bytes !== undefined && bytes.length >= 32 && !equalBytes(bytes.subarray(0, 32), root);
}

/** The share of the key space up to the marker (hashed keys are uniform), 0 to 1. */
export function markerProgress(marker: Uint8Array | undefined): number {
  if (marker === undefined) return 0;
  return (((marker[0] as number) << 16) | ((marker[1] as number) << 8) | (marker[2] as number)) / 2 ** 24;
}

/** What a store's flat state record says (`xchain db inspect`): undefined without one. */
export async function storedFlatState(
  store: Pick<KeyValueStore, "get">,
): Promise<{complete: boolean; root: string; progress: number} | undefined> {
  const meta = decodeFlatMeta(await store.get(Bucket.flatState, FLAT_META_KEY));
  return (
    meta && {
      complete: meta.complete,
      root: bytesToPrefixedHex(meta.root),
      progress: meta.complete ? 1 : markerProgress(meta.marker),
    }
  );
}
