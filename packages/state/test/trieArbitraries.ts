import fc from "fast-check";

/** Keys of one length from a few bytes, so that paths share prefixes, split into branches and extensions, and collapse. */
export function trieKeys(length: number): fc.Arbitrary<Uint8Array> {
  return fc.uint8Array({minLength: length, maxLength: length, min: 0, max: 3}).map((k) => k.map((b) => b * 0x55));
}
