/** The `web3` namespace (docs/rpc.md §4.2). */
import {keccak256, toData} from "@xchain/utils";
import type {RpcMethod} from "../jsonrpc/registry.ts";
import type {ModuleDeps} from "../moduleDeps.ts";
import {data} from "../params/hex.ts";
import {method, param} from "../params/method.ts";

/**
 * `xchain/<version>/<platform>/node<major>`, after rskj's `RskJ/<version>/<os>/Java<major>`
 * (docs/protocol/networks.md §1).
 */
export function formatClientVersion(version: string): string {
  return `xchain/${version}/${process.platform}/node${process.versions.node.split(".")[0]}`;
}

/** The version part of a `formatClientVersion` string; the whole string when it has another form. */
export function clientVersionNumber(clientVersion: string): string {
  const [name, version] = clientVersion.split("/");
  return name === "xchain" && version ? version : clientVersion;
}

/** What web3_clientVersion answers: `rpc.clientVersion` when set, else the node's own version. */
export function answeredClientVersion({clientVersion, options}: Pick<ModuleDeps, "clientVersion" | "options">): string {
  return options.clientVersion ?? clientVersion;
}

/**
 * web3_* methods. web3_clientVersion answers `rpc.clientVersion` when set (docs/rpc.md §4.2: the
 * string Hardhat's network helpers check); rpc.discover keeps the node's own version.
 */
export function web3Methods(deps: Pick<ModuleDeps, "clientVersion" | "options">): Record<string, RpcMethod> {
  const answered = answeredClientVersion(deps);
  return {
    /** Handler for `web3_clientVersion` */
    clientVersion: method([], () => answered),
    /** Handler for `web3_sha3`: Keccak-256, not SHA3-256 (docs/rpc.md §4.2) */
    sha3: method([param("data", data)], (bytes) => toData(keccak256(bytes))),
  };
}
