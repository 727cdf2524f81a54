import {createMPT} from "@ethereumjs/mpt";
import {MapDB, ValueEncoding} from "@ethereumjs/util";
import {bytesToHex} from "@xchain/utils";
import fc from "fast-check";
import {describe, expect, it} from "vitest";
import {trieLookup} from "../src/trieLookup.ts";

/** Keys of one length from a few bytes, so that paths share prefixes; short values make embedded nodes. */
function entries(length: number) {
  const key = fc.uint8Array({minLength: length, maxLength: length, min: 0, max: 3}).map((k) => k.map((b) => b * 0x55));
  return fc.tuple(
    fc.array(fc.tuple(key, fc.uint8Array({minLength: 1, maxLength: 40})), {maxLength: 40}),
    fc.array(key),
  );
}

describe("trieLookup", () => {
  for (const length of [1, 2, 32]) {
    it(`answers what the MPT's get answers, for present and absent ${length}-byte keys`, async () => {
      await fc.assert(
        fc.asyncProperty(entries(length), async ([written, probes]) => {
          const trie = await createMPT({db: new MapDB<string, Uint8Array>(), valueEncoding: ValueEncoding.Bytes});
          for (const [key, value] of written) await trie.put(key, value);
          for (const key of [...written.map(([k]) => k), ...probes]) {
            const expected = await trie.get(key);
            const found = await trieLookup(trie.database(), trie.root(), key);
            expect(found && bytesToHex(found)).toBe(expected === null ? undefined : bytesToHex(expected));
          }
        }),
        {seed: 15, numRuns: 300},
      );
    });
  }
});
