/** A store's fork anchor read back before the chain opens (a restart of a forked node, `--fork.offline`). */
import type {KeyValueStore} from "@xchain/db";
import {Bucket} from "@xchain/db";
import {BlockHeader, type HeaderEncodingRules} from "@xchain/primitives";
import {CanonicalIndex} from "../store/canonicalIndex.ts";
import {MetaStore} from "../store/metaStore.ts";
import type {ForkAnchorId} from "./anchor.ts";

/** A stored fork: its `forkAnchor` record and the anchor header stored at height F. */
export interface StoredForkAnchor extends ForkAnchorId {
  header: BlockHeader;
}

/** What fork `kv` holds (its `forkAnchor` record), or undefined: the fork block a restart must pin. */
export function readForkAnchorId(kv: KeyValueStore): Promise<ForkAnchorId | undefined> {
  return new MetaStore(kv).getForkAnchor();
}

/**
 * The fork `kv` holds, or undefined for a chain from a genesis (or an empty store). The header is
 * decoded under `rules`, the upstream network's (RSKIP-92 heights).
 */
export async function readForkAnchor(
  kv: KeyValueStore,
  rules: HeaderEncodingRules,
): Promise<StoredForkAnchor | undefined> {
  const id = await readForkAnchorId(kv);
  if (!id) return undefined;
  const hash = await new CanonicalIndex(kv).hashAt(id.number);
  const bytes = hash && (await kv.get(Bucket.header, hash));
  return bytes && {...id, header: BlockHeader.decode(bytes, rules)};
}
