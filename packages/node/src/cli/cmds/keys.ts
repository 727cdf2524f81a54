/**
 * `xchain keys add|list|revoke|set`: the API keys of the gateway (docs/gateway.md), in the keys
 * file a running node reloads on change. `add` prints the new secret once; the file keeps only
 * its SHA-256.
 */
import {existsSync} from "node:fs";
import {dirname} from "node:path";
import type {ApiKeyRecord, KeysFile} from "@xchain/rpc";
import {makeDirectory} from "@xchain/utils";
import {type Command, Option} from "commander";
import {NETWORK_CHOICES, type NetworkChoice} from "../../network.ts";
import {defaultDataDir, gatewayKeysFile} from "../../options.ts";
import {applyKeyFlags, type KeyFlags, withKeyFlags} from "./keyFlags.ts";

interface FileFlags {
  network: NetworkChoice;
  datadir?: string;
  keysFile?: string;
}

/** The gateway's key file code, loaded when a subcommand runs (the RPC package is large: docs/performance.md §23). */
const gateway = () => import("@xchain/rpc");

/** Registers the command and its subcommands on the program. */
export function registerKeys(program: Command): void {
  const keys = program.command("keys").description("manage the API keys of the gateway (rpc.gateway)");
  const withFile = (command: Command) =>
    command
      .addOption(
        new Option("--network <name>", "network (picks the default data directory)")
          .choices(NETWORK_CHOICES)
          .default("regtest"),
      )
      .option("--datadir <dir>", "the node's data directory (default ~/.xchain/<network>)")
      .option("--keys-file <file>", "the keys file (default <datadir>/gateway-keys.json)");

  withKeyFlags(withFile(keys.command("add").description("add a key and print its secret, once"))).action(
    async (flags: FileFlags & KeyFlags) => {
      const {defaultKeyLimits, defaultKeyPermissions, hashSecret, newKeyId, newSecret, readKeysFile} = await gateway();
      const path = keysPath(flags);
      const file = await readKeysFile(path);
      const secret = newSecret();
      let id = newKeyId();
      while (file.keys.some((k) => k.id === id)) id = newKeyId();
      const blank: ApiKeyRecord = {
        id,
        sha256: hashSecret(secret),
        label: "",
        created: new Date().toISOString(),
        permissions: defaultKeyPermissions(),
        limits: defaultKeyLimits(),
      };
      await save(path, {...file, keys: [...file.keys, applyKeyFlags(blank, flags)]});
      console.log(`id   ${id}`);
      console.log(`key  ${secret}`);
      console.error("the key is shown only now: the file keeps its hash. Clients use <rpc url>/<key>.");
    },
  );

  withFile(
    keys.command("list").description("list the keys (ids, labels, permissions, limits; never the secrets)"),
  ).action(async (flags: FileFlags) => {
    const {readKeysFile} = await gateway();
    const path = keysPath(flags);
    const {keys} = await readKeysFile(path);
    // On stderr, so that stdout stays one line per key: which file was read, since the default depends on --network.
    if (keys.length > 0) console.error(`${keys.length} key${keys.length === 1 ? "" : "s"} in ${path}`);
    else if (existsSync(path)) console.error(`no keys in ${path}`);
    else
      console.error(
        `no keys: ${path} does not exist (xchain keys add creates it; --datadir or --keys-file read another)`,
      );
    for (const key of keys) console.log(describeKey(key));
  });

  withFile(keys.command("revoke").argument("<id>", "the key's id").description("remove a key")).action(
    async (id: string, flags: FileFlags) => {
      const {readKeysFile} = await gateway();
      const path = keysPath(flags);
      const file = await readKeysFile(path);
      if (!file.keys.some((k) => k.id === id)) throw new Error(`no key ${id} in ${path}`);
      await save(path, {...file, keys: file.keys.filter((k) => k.id !== id)});
      console.log(`revoked ${id}`);
    },
  );

  withKeyFlags(
    withFile(keys.command("set").argument("<id>", "the key's id").description("change a key's permissions or limits")),
  ).action(async (id: string, flags: FileFlags & KeyFlags) => {
    const {readKeysFile} = await gateway();
    const path = keysPath(flags);
    const file = await readKeysFile(path);
    if (!file.keys.some((k) => k.id === id)) throw new Error(`no key ${id} in ${path}`);
    const keys = file.keys.map((k) => (k.id === id ? applyKeyFlags(k, flags) : k));
    await save(path, {...file, keys});
    console.log(describeKey(keys.find((k) => k.id === id) as ApiKeyRecord));
  });
}

function keysPath(flags: FileFlags): string {
  return flags.keysFile ?? gatewayKeysFile(flags.datadir ?? defaultDataDir(flags.network));
}

/** Checks the new content as the node will parse it, then writes it. */
async function save(path: string, file: KeysFile): Promise<void> {
  const {parseKeysFile, writeKeysFile} = await gateway();
  parseKeysFile(JSON.stringify(file), path);
  await makeDirectory(dirname(path));
  await writeKeysFile(path, file);
}

/** One line per key. */
function describeKey(key: ApiKeyRecord): string {
  const {permissions: p, limits: l} = key;
  const override = p.stateOverride === undefined ? "node" : p.stateOverride ? "on" : "off";
  const ranges = `${l.logsMaxBlockRange ?? "-"}/${l.traceMaxBlockRange ?? "-"}`;
  return (
    `${key.id}  ${JSON.stringify(key.label)}  created ${key.created}  namespaces ${p.namespaces.join(",")}` +
    `  methods ${p.methods.join(",") || "-"}  stateOverride ${override}  ${l.requestsPerSecond} req/s burst ${l.burst}` +
    `  batch ${l.maxBatchSize}  ws ${l.maxWsConnections}  subscriptions ${l.maxSubscriptions}  logs/trace range ${ranges}`
  );
}
