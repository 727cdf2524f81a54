/**
 * The remote side of fork mode (docs/forking.md §1): accounts, code, storage slots and block hashes of an
 * upstream chain at a pinned fork block, read through the disk cache (`ForkCache`), fetched by the
 * `UpstreamClient` when missing, and checked against the fork block's state root with `eth_getProof` when
 * `verify` asks for it. Reads are pinned by EIP-1898 `{blockHash}`; an upstream that refuses the object form
 * is read by number from then on, once it has confirmed that its block at that number is the fork block.
 */

import {equalBytes, keccak256, type Logger, noopLogger, redactUrl, toData, toQuantity} from "@xchain/utils";
import type {ForkSourceOptions} from "../options.ts";
import {bytesStorage, storesByteStrings} from "../storageBytes.ts";
import {EMPTY_CODE_HASH} from "../trie.ts";
import {AnswerError, data, type ForkHeader, forkHeader, quantity, storageWord, storedBytes} from "./answers.ts";
import {dialectOf, isMethodMissing, type UpstreamDialect} from "./dialect.ts";
import {ForkError, ForkErrorCode} from "./errors.ts";
import {type FirstContact, firstContact, PROBE_KEY, ZERO_ADDRESS} from "./firstContact.ts";
import {ForkCache, type ForkScope, type UpstreamRecord} from "./forkCache.ts";
import {forwardedRequest, relayed, upstreamMethod} from "./forwarding.ts";
import {type ForkAccount, ProofMismatch, verifiedAccount, verifiedSlot} from "./proofs.ts";
import {UpstreamClient} from "./upstreamClient.ts";
import {chainMismatch, learnUpstream, offlineMiss, resolveForkBlock, type Settled} from "./upstreamOpening.ts";

/** rskj's raw storage read (docs/protocol/json-rpc.md §2), disabled on rskj by default. */
const RAW_STORAGE_METHOD = "rsk_getStorageBytesAt";

/** What a `ForkSource` logs to. */
export interface ForkSourceModules {
  logger?: Logger;
}

export class ForkSource {
  /** Reads in flight by key, so that concurrent reads of one value send one request. */
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private closed = false;

  private constructor(
    // The URL, the client and the upstream's record change with `repoint` (anvil_setRpcUrl).
    private opts: ForkSourceOptions,
    private client: UpstreamClient,
    private readonly cache: ForkCache,
    private record: UpstreamRecord,
    private readonly scope: ForkScope,
    /** The fork block's header. */
    readonly header: ForkHeader,
    private readonly logger: Logger,
  ) {}

  /**
   * Opens the cache, learns the upstream (chain id, dialect, whether it serves proofs: from the cache when a
   * run has already asked) and resolves the fork block. A warm cache with a pinned block sends no request.
   */
  static async open(opts: ForkSourceOptions, modules: ForkSourceModules = {}): Promise<ForkSource> {
    const logger = modules.logger ?? noopLogger;
    return ForkSource.openOn(opts, await ForkCache.open(opts.cacheDir, {logger}), logger);
  }

  /** `open` on a cache already open (this source closes it once: `ForkCache.retain`). */
  private static async openOn(opts: ForkSourceOptions, cache: ForkCache, logger: Logger): Promise<ForkSource> {
    const client = new UpstreamClient(opts.url, opts, {logger});
    try {
      const known = await cache.upstream(client.displayUrl);
      // A first open asks the chain id, the fork block named and the proofs probe in one batch.
      const early = known ? undefined : firstContact(client, opts);
      const record = known ?? (await (early as FirstContact).record);
      const header = await resolveForkBlock(opts, client, cache, record, early?.block);
      const scope = cache.scope(record.chainId, header.hash);
      await scope.probe();
      const source = new ForkSource(opts, client, cache, record, scope, header, logger);
      await source.checkProofs(early?.probe);
      record.lastForkHash = source.header.hash;
      cache.putUpstream(client.displayUrl, record);
      logger.info(
        {
          url: client.displayUrl,
          chainId: record.chainId.toString(),
          block: source.header.number,
          hash: toData(source.header.hash),
          dialect: source.dialect,
          verified: source.verifies,
          offline: opts.offline,
        },
        "fork upstream ready",
      );
      return source;
    } catch (e) {
      client.close();
      await cache.close();
      throw e;
    }
  }

  /** The upstream's URL as logs and errors show it (credentials and key-like path segments redacted). */
  get url(): string {
    return this.client.displayUrl;
  }

  /** The upstream's chain id. */
  get chainId(): bigint {
    return this.record.chainId;
  }

  get dialect(): UpstreamDialect {
    return dialectOf(this.record.clientVersion);
  }

  /** Whether fetched accounts and slots are checked against the fork block's state root. */
  get verifies(): boolean {
    return this.opts.verify !== "off" && this.record.proofs === true;
  }

  /** The account at the fork block (the empty account when it does not exist there). */
  account(address: Uint8Array): Promise<ForkAccount> {
    const key = `account ${toData(address)}`;
    return this.once(key, async () => {
      const cached = await this.scope.account(address);
      if (cached && this.usable(cached.verified)) return cached.value;
      this.online(key);
      return this.verifies ? this.fetchVerifiedAccount(address, key) : this.fetchAccount(address, key);
    });
  }

  /** The account's code at the fork block (empty for none). */
  async code(address: Uint8Array): Promise<Uint8Array> {
    const {codeHash} = await this.account(address);
    if (equalBytes(codeHash, EMPTY_CODE_HASH)) return new Uint8Array(0);
    const key = `code ${toData(address)}`;
    return this.once(key, async () => {
      const cached = await this.scope.code(codeHash);
      if (cached) return cached;
      this.online(key);
      const code = await this.guard(key, async () =>
        data(await this.read("eth_getCode", [toData(address)], key), "the code"),
      );
      if (!equalBytes(keccak256(code), codeHash)) {
        throw this.invalid(key, `the code's hash is ${toData(keccak256(code))}, the account's ${toData(codeHash)}`);
      }
      this.scope.putCode(codeHash, code);
      return code;
    });
  }

  /** The 32-byte value of `slot` (32 bytes) of the account's storage at the fork block. */
  storage(address: Uint8Array, slot: Uint8Array): Promise<Uint8Array> {
    const key = `storage ${toData(address)} slot ${toData(slot)}`;
    return this.once(key, async () => {
      const cached = await this.scope.storage(address, slot);
      if (cached && this.usable(cached.verified)) return cached.value;
      this.online(key);
      const value = await this.guard(key, async () => {
        if (!this.verifies)
          return storageWord(await this.read("eth_getStorageAt", [toData(address), toData(slot)], key), "the value");
        const answer = await this.read("eth_getProof", [toData(address), [toData(slot)]], key);
        // The account is most often read (and proven) before its slots: its proof is then not walked again.
        const known = await this.scope.account(address);
        const proven = known?.verified ? known.value : undefined;
        const account = await verifiedAccount(this.header.stateRoot, address, answer, proven);
        if (account !== known?.value) this.scope.putAccount(address, account, true);
        return verifiedSlot(account.storageRoot as Uint8Array, slot, answer);
      });
      this.scope.putStorage(address, slot, value, this.verifies);
      return value;
    });
  }

  /**
   * The raw bytes stored under `key` (32 bytes) in the account's storage at the fork block, empty when
   * nothing is (docs/forking.md §6). On rskj, `rsk_getStorageBytesAt`: the native contracts (the Bridge)
   * store values longer than a word, which eth_getStorageAt cuts to 32 bytes; rskj serves it only when
   * enabled (FORK_UPSTREAM_METHOD_UNAVAILABLE otherwise). Other upstreams store words, so it is the word
   * without its leading zeros, read (and verified) as `storage`; an xchain upstream's Bridge keeps its
   * byte strings spread over words (`storageBytes.ts`), read back from those words.
   */
  async storageBytes(address: Uint8Array, key: Uint8Array): Promise<Uint8Array> {
    if (this.dialect !== "rskj") {
      if (storesByteStrings(address)) {
        return bytesStorage({
          get: (slot) => this.storage(address, slot),
          put: () => Promise.reject(new Error("read-only")),
        }).getBytes(key);
      }
      const word = await this.storage(address, key);
      const start = word.findIndex((b) => b !== 0);
      return start === -1 ? new Uint8Array(0) : word.subarray(start);
    }
    const name = `storage bytes ${toData(address)} key ${toData(key)}`;
    return this.once(name, async () => {
      const cached = await this.scope.storageBytes(address, key);
      if (cached) return cached;
      this.online(name);
      let answer: unknown;
      try {
        answer = await this.read(RAW_STORAGE_METHOD, [toData(address), toData(key)], name);
      } catch (e) {
        throw isMethodMissing(e) ? this.methodUnavailable(RAW_STORAGE_METHOD, name, e as ForkError) : e;
      }
      const value = this.guardSync(name, () => storedBytes(answer, "the stored bytes"));
      this.scope.putStorageBytes(address, key, value);
      return value;
    });
  }

  /** The hash of the upstream's block `number`, at most the fork block's number. */
  async blockHash(number: number): Promise<Uint8Array> {
    if (number > this.header.number) {
      throw new ForkError(
        {code: ForkErrorCode.BLOCK_ABOVE_FORK, number, forkNumber: this.header.number},
        `block ${number} is above the fork block ${this.header.number}: the upstream's hash is not the fork's`,
      );
    }
    if (number === this.header.number) return this.header.hash;
    const key = `block ${number}`;
    return this.once(key, async () => {
      const cached = await this.scope.blockHash(number);
      if (cached) return cached;
      this.online(key);
      const hash = await this.guard(key, async () => {
        const block = await this.client.call("eth_getBlockByNumber", [toQuantity(number), false], key);
        if (block === null) throw new AnswerError("the upstream has no such block");
        return forkHeader(block).hash;
      });
      this.scope.putBlockHash(number, hash);
      return hash;
    });
  }

  /** The fork block's number F. */
  get forkNumber(): number {
    return this.header.number;
  }

  /**
   * `method(params)` sent to the upstream as given (docs/forking.md §5), under the upstream's name for it:
   * its `result` as answered, never parsed. An immutable answer (pinned at or below F, or by block hash:
   * forwarding.ts) is kept in the cache and answered from it, offline too; any other request fails offline
   * with FORK_OFFLINE_MISS. A JSON-RPC error answer is FORK_FORWARDED_ERROR, relayed as the upstream sent it.
   */
  forward(method: string, params: readonly unknown[]): Promise<unknown> {
    const request = forwardedRequest(method, params, this.header.number);
    return this.once(request.key, async () => {
      const {cacheKey} = request;
      const cached = cacheKey && (await this.scope.answer(cacheKey));
      if (cached !== undefined) return cached;
      this.online(cacheKey ? request.name : `${request.name} (an answer that is never cached)`);
      let result: unknown;
      try {
        result = await this.client.call(upstreamMethod(this.dialect, method), [...params], request.name);
      } catch (e) {
        throw relayed(e, method);
      }
      if (cacheKey && request.keeps(result)) this.scope.putAnswer(cacheKey, result);
      return result;
    });
  }

  /**
   * A source of the fork block `block` (default: the upstream's head minus `safeDepth`, as at open) on
   * `url` (default: this source's), reading and writing the same cache, whose values stay keyed by
   * chain id and fork block (docs/forking.md §8). The upstream must be this fork's chain
   * (FORK_UPSTREAM_MISMATCH otherwise). This source is left as it is: `retire` it once the new one is in use.
   */
  async refork(change: {url?: string | undefined; block?: number | Uint8Array | undefined}): Promise<ForkSource> {
    const opts: ForkSourceOptions = {...this.opts, url: change.url ?? this.opts.url, block: change.block};
    const next = await ForkSource.openOn(opts, this.cache.retain(), this.logger);
    if (next.chainId !== this.chainId) {
      await next.close();
      throw chainMismatch(next.url, next.chainId, this.chainId);
    }
    return next;
  }

  /**
   * Reads go to `url` from now on (anvil_setRpcUrl, docs/forking.md §8), once it has answered this fork's
   * chain id and the fork block by its hash; whether it serves `eth_getProof` is asked again (`verify` "on"
   * refuses one that does not). The cache stays: its values are keyed by chain id and fork block, not by
   * URL. Reads in flight finish on the previous upstream, whose client is closed once they have settled.
   */
  async repoint(url: string): Promise<void> {
    const key = `block ${toData(this.header.hash)}`;
    if (this.opts.offline) {
      throw new ForkError(
        {code: ForkErrorCode.OFFLINE_MISS, key, chainId: this.chainId.toString(), forkBlock: toData(this.header.hash)},
        `fork.offline: the node sends no request, so it cannot check that ${redactUrl(url)} serves ${key}; restart online to change the upstream`,
      );
    }
    const opts: ForkSourceOptions = {...this.opts, url};
    const client = new UpstreamClient(url, opts, {logger: this.logger});
    try {
      const record = await learnUpstream(client, opts);
      if (record.chainId !== this.chainId) throw chainMismatch(client.displayUrl, record.chainId, this.chainId);
      const block = await client.call("eth_getBlockByHash", [toData(this.header.hash), false], key);
      const served = block === null ? undefined : this.guardSync(key, () => forkHeader(block).hash);
      if (served === undefined || !equalBytes(served, this.header.hash)) {
        throw new ForkError(
          {code: ForkErrorCode.FORK_BLOCK_NOT_FOUND, url: client.displayUrl, block: key},
          `upstream ${client.displayUrl} has no ${key}, the fork block ${this.header.number}: it cannot serve this fork`,
        );
      }
      // The probe reads through the new client (with its own fallback to pinning by number).
      const candidate = new ForkSource(opts, client, this.cache, record, this.scope, this.header, this.logger);
      await candidate.checkProofs(undefined);
      record.lastForkHash = this.header.hash;
      this.cache.putUpstream(client.displayUrl, record);
      const previous = this.client;
      const settled = Promise.allSettled([...this.inFlight.values()]);
      [this.opts, this.client, this.record] = [opts, client, record];
      void settled.then(() => previous.close());
      this.logger.info({url: client.displayUrl, previous: previous.displayUrl}, "fork upstream changed");
    } catch (e) {
      client.close();
      throw e;
    }
  }

  /**
   * Closes this source once the reads in flight on it have settled (the rule after a re-fork put another
   * source in its place): a request still holding a state of this fork reads what the cache holds, and a
   * value it does not fails naming the closed source.
   */
  async retire(): Promise<void> {
    await Promise.allSettled([...this.inFlight.values()]);
    await this.close();
  }

  /** Stops the requests in flight and closes the cache (once: a second call does nothing). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.client.close();
    await this.cache.close();
  }

  private async fetchVerifiedAccount(address: Uint8Array, key: string): Promise<ForkAccount> {
    const account = await this.guard(key, async () =>
      verifiedAccount(this.header.stateRoot, address, await this.read("eth_getProof", [toData(address), []], key)),
    );
    this.scope.putAccount(address, account, true);
    return account;
  }

  private async fetchAccount(address: Uint8Array, key: string): Promise<ForkAccount> {
    const at = toData(address);
    const [balance, nonce, code] = await Promise.all([
      this.read("eth_getBalance", [at], key),
      this.read("eth_getTransactionCount", [at], key),
      this.read("eth_getCode", [at], key),
    ]);
    const [account, bytes] = await this.guard(key, async () => {
      const bytes = data(code, "the code");
      const account: ForkAccount = {
        balance: quantity(balance, "the balance"),
        nonce: quantity(nonce, "the nonce"),
        codeHash: keccak256(bytes),
        storageRoot: undefined,
      };
      return [account, bytes] as const;
    });
    if (bytes.length > 0) this.scope.putCode(account.codeHash, bytes);
    this.scope.putAccount(address, account, false);
    return account;
  }

  /** On open: asks an upstream not yet asked whether it serves eth_getProof; refuses `verify = "on"` without. */
  private async checkProofs(early: Promise<Settled> | undefined): Promise<void> {
    if (this.opts.verify !== "off" && this.record.proofs === undefined && !this.opts.offline) {
      this.record.proofs = this.dialect !== "rskj" && (await this.servesProofs(early));
      if (!this.record.proofs) {
        this.logger.warn(
          {url: this.client.displayUrl},
          "the fork's upstream serves no eth_getProof: values are not verified",
        );
      }
    }
    if (this.opts.verify === "on" && !this.record.proofs) throw this.noProofs();
  }

  /** Whether the probe (the one asked early, or one asked now) was answered; another error than a missing method is asked again. */
  private async servesProofs(early: Promise<Settled> | undefined): Promise<boolean> {
    const answer = await early;
    if (answer !== undefined && ("result" in answer || isMethodMissing(answer.error))) return "result" in answer;
    try {
      await this.read("eth_getProof", [toData(ZERO_ADDRESS), []], PROBE_KEY);
      return true;
    } catch (e) {
      if (isMethodMissing(e)) return false;
      throw e;
    }
  }

  /**
   * `method(params…, block)` at the fork block: `{blockHash}` (EIP-1898), or the number once the upstream has
   * refused the object form and confirmed that its block at that number is the fork block.
   */
  private async read(method: string, params: unknown[], key: string): Promise<unknown> {
    if (!this.record.pinByNumber) {
      try {
        return await this.client.call(method, [...params, {blockHash: toData(this.header.hash)}], key);
      } catch (e) {
        if (!(e instanceof ForkError) || e.type.code !== ForkErrorCode.UPSTREAM_ERROR_ANSWER || isMethodMissing(e)) {
          throw e;
        }
        const block = await this.client.call("eth_getBlockByNumber", [toQuantity(this.header.number), false], key);
        const hash = block === null ? undefined : this.guardSync(key, () => forkHeader(block).hash);
        if (hash === undefined || !equalBytes(hash, this.header.hash)) throw e;
        const result = await this.client.call(method, [...params, toQuantity(this.header.number)], key);
        this.record.pinByNumber = true;
        this.logger.warn(
          {url: this.client.displayUrl, refused: e.type.rpcMessage},
          "the fork's upstream refuses EIP-1898 block objects: reads are pinned by the fork block's number",
        );
        this.cache.putUpstream(this.client.displayUrl, this.record);
        return result;
      }
    }
    return this.client.call(method, [...params, toQuantity(this.header.number)], key);
  }

  /** Whether a cached value may be used: always, unless it is unverified and verification is asked for. */
  private usable(verified: boolean): boolean {
    return verified || (this.opts.offline ? this.opts.verify !== "on" : !this.verifies);
  }

  private online(key: string): void {
    if (this.opts.offline) throw offlineMiss(key, this.record.chainId, toData(this.header.hash));
    if (this.closed) {
      const url = this.client.displayUrl;
      const reason = `the fork of block ${this.header.number} was closed (reset to another block, or the node stopping)`;
      throw new ForkError(
        {code: ForkErrorCode.UPSTREAM_UNREACHABLE, url, key, attempts: 0, reason},
        `upstream ${url}: reading ${key}: ${reason}`,
      );
    }
  }

  private once<T>(key: string, run: () => Promise<T>): Promise<T> {
    const running = this.inFlight.get(key);
    if (running) return running as Promise<T>;
    const promise = run().finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, promise);
    return promise;
  }

  /** Runs `run`, turning a value that does not parse or verify into the ForkError naming the upstream and `key`. */
  private async guard<T>(key: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (e) {
      throw this.wrap(key, e);
    }
  }

  private guardSync<T>(key: string, run: () => T): T {
    try {
      return run();
    } catch (e) {
      throw this.wrap(key, e);
    }
  }

  private wrap(key: string, e: unknown): unknown {
    const url = this.client.displayUrl;
    if (e instanceof ProofMismatch) return this.invalid(key, e.message);
    if (e instanceof AnswerError) {
      return new ForkError(
        {code: ForkErrorCode.UPSTREAM_BAD_ANSWER, url, key, reason: e.message},
        `upstream ${url}: reading ${key}: ${e.message}`,
      );
    }
    return e;
  }

  private invalid(key: string, reason: string): ForkError {
    const url = this.client.displayUrl;
    return new ForkError(
      {code: ForkErrorCode.PROOF_INVALID, url, key, reason},
      `upstream ${url}: ${key} does not verify against the fork block's state root ${toData(this.header.stateRoot)}: ${reason}; refused`,
    );
  }

  private methodUnavailable(method: string, key: string, refusal: ForkError): ForkError {
    const url = this.client.displayUrl;
    const rpcMessage = refusal.type.code === ForkErrorCode.UPSTREAM_ERROR_ANSWER ? refusal.type.rpcMessage : "";
    return new ForkError(
      {code: ForkErrorCode.UPSTREAM_METHOD_UNAVAILABLE, url, key, method, rpcMessage},
      `upstream ${url} does not serve ${method}, which reading ${key} needs (rskj disables it by default: ` +
        `enable it in the upstream's rpc.modules, module "rsk"); it answered: ${rpcMessage}`,
    );
  }

  private noProofs(): ForkError {
    const url = this.client.displayUrl;
    const {clientVersion} = this.record;
    return new ForkError(
      {code: ForkErrorCode.PROOFS_UNAVAILABLE, url, clientVersion},
      `fork.verify is "on" but the upstream ${url} (${clientVersion}) serves no eth_getProof`,
    );
  }
}
