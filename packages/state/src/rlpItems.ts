/** Where one RLP item's payload lies in its buffer, and whether the item is a list. */
export interface RlpItem {
  start: number;
  end: number;
  list: boolean;
}

/**
 * The items of the RLP list at the start of `bytes`, as payload ranges, without copying or
 * decoding them. Only for trusted input (trie nodes this process encoded): lengths are not
 * validated beyond the buffer's bounds.
 */
export function rlpListItems(bytes: Uint8Array): RlpItem[] {
  return rlpItemsOf(bytes, rlpItemAt(bytes, 0));
}

/** The items of the list `outer` (an item of `bytes`, such as a node embedded in its parent), as `rlpListItems`. */
export function rlpItemsOf(bytes: Uint8Array, outer: RlpItem): RlpItem[] {
  if (!outer.list) throw new RangeError("RLP item is not a list");
  const items: RlpItem[] = [];
  for (let offset = outer.start; offset < outer.end; ) {
    const item = rlpItemAt(bytes, offset);
    items.push(item);
    offset = item.end;
  }
  return items;
}

/** The RLP item that starts at `offset` of `bytes` (trusted input, as `rlpListItems`). */
export function rlpItemAt(bytes: Uint8Array, offset: number): RlpItem {
  const prefix = bytes[offset];
  if (prefix === undefined) throw new RangeError("RLP item beyond the end of the buffer");
  if (prefix < 0x80) return {start: offset, end: offset + 1, list: false};
  const list = prefix >= 0xc0;
  const short = prefix - (list ? 0xc0 : 0x80);
  if (short <= 55) return range(bytes, offset + 1, short, list);
  const lengthBytes = short - 55;
  let length = 0;
  for (let i = 1; i <= lengthBytes; i++) length = length * 256 + (bytes[offset + i] ?? 0);
  return range(bytes, offset + 1 + lengthBytes, length, list);
}

function range(bytes: Uint8Array, start: number, length: number, list: boolean): RlpItem {
  if (start + length > bytes.length) throw new RangeError("RLP item beyond the end of the buffer");
  return {start, end: start + length, list};
}
