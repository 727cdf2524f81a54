/**
 * The API-key gateway (docs/gateway.md): with `rpc.gateway.enabled`, a request is admitted only at
 * the path `/<API key>`, exactly: no query string, no trailing slash, no percent-encoding, nothing
 * longer. Everything else is refused before any work with -32001 (HTTP 401). The keys come from the
 * keys file and are reloaded when it changes; a file that fails to parse at a reload (one key hash
 * twice included) is logged and the previous keys stay. With no key loaded every request is refused,
 * saying so, and a warning says why at start-up and at each reload.
 */
import type {Logger} from "@xchain/utils";
import {RpcError} from "../jsonrpc/errors.ts";
import type {RequestLimits} from "../jsonrpc/principal.ts";
import type {Admission} from "../limits/admission.ts";
import {DEFAULT_NODE_LIMITS} from "../limits/requestLimits.ts";
import type {KeyAccess} from "./keyAccess.ts";
import {KeyStore} from "./keyStore.ts";
import {readKeysFile} from "./keysFile.ts";
import {KEYS_DEBOUNCE_MS, KEYS_POLL_MS, watchKeysFile} from "./keysWatcher.ts";

/** `/` and 64 hex digits: the only path length that can hold a key. */
const KEY_PATH_LENGTH = 65;

const MALFORMED = RpcError.unauthorized("the URL path must be /<API key>");
const UNKNOWN = RpcError.unauthorized("unknown API key");
const NO_KEYS = RpcError.unauthorized("no API keys are loaded on this node");

/** Admission by API key, over a keys file it keeps watching. */
export class Gateway implements Admission {
  private readonly store: KeyStore;
  private stopWatching: () => void = () => undefined;
  private reloading: Promise<void> = Promise.resolve();

  private constructor(
    private readonly path: string,
    private readonly logger: Logger,
    node: RequestLimits,
  ) {
    this.store = new KeyStore(node);
  }

  /**
   * Loads the keys file (throws `KeysFileError` when it is invalid; a missing one has no keys) and
   * watches it. `node`: the node's own limits, which each key's narrow.
   */
  static async open(
    path: string,
    logger: Logger,
    timing = {pollMs: KEYS_POLL_MS, debounceMs: KEYS_DEBOUNCE_MS},
    node: RequestLimits = DEFAULT_NODE_LIMITS,
  ): Promise<Gateway> {
    const gateway = new Gateway(path, logger, node);
    gateway.store.apply(await readKeysFile(path));
    logger.info({keysFile: path, keys: gateway.store.size}, `API-key gateway on with ${gateway.store.size} key(s)`);
    gateway.warnWhenEmpty();
    gateway.stopWatching = watchKeysFile(path, () => void gateway.reload(), timing);
    return gateway;
  }

  /** The key a request's URL path presents, or the -32001 error it is refused with. */
  admit(url: string | undefined): KeyAccess | RpcError {
    if (this.store.size === 0) return NO_KEYS;
    if (url === undefined || url.length !== KEY_PATH_LENGTH || url.charCodeAt(0) !== 0x2f) return MALFORMED;
    return this.store.lookup(url.slice(1)) ?? UNKNOWN;
  }

  /** Reads the file again and applies it; reloads run one after another. */
  reload(): Promise<void> {
    this.reloading = this.reloading.then(async () => {
      try {
        const change = this.store.apply(await readKeysFile(this.path));
        this.logger.info({...change, keys: this.store.size}, "gateway keys reloaded");
        this.warnWhenEmpty();
      } catch (error) {
        // The file holds hashes only: its error names a path in it, never a usable key.
        this.logger.warn({err: error}, "gateway keys file not reloaded; the previous keys stay");
      }
    });
    return this.reloading;
  }

  /** An operator whose every request is refused learns why (docs/gateway.md §1). */
  private warnWhenEmpty(): void {
    if (this.store.size > 0) return;
    this.logger.warn(
      {keysFile: this.path},
      `API-key gateway on with no keys in ${this.path} (missing or empty): every request is refused until one is added with \`xchain keys add\``,
    );
  }

  /** Stops watching and revokes every key (their WebSocket connections close). */
  close(): void {
    this.stopWatching();
    this.store.clear();
  }
}
