/**
 * Configurations that hand the node to strangers: dev controls (the dev wallet, `evm_*`,
 * `personal_*`) or `admin_*` on an RPC listener beyond loopback, the dev wallet open to any web page, dev
 * controls on a public network. Each is refused at start-up unless its `unsafe.*` key accepts it,
 * which then logs a warning.
 */
import {DEV_METHODS, isModuleEnabledByDefault, type RpcOptions} from "@xchain/rpc";
import {isLoopbackHost, type Logger} from "@xchain/utils";
import type {NodeOptions, UnsafeOptions} from "../options.ts";
import {ConfigError, ConfigErrorCode} from "./errors.ts";

/** Each risky configuration. */
export enum RiskyConfigurationCode {
  /** The dev wallet, `evm_*` or `personal_*` served on an RPC listener beyond loopback. */
  DEV_CONTROLS_ON_PUBLIC_RPC = "DEV_CONTROLS_ON_PUBLIC_RPC",
  /** The dev wallet with a `*` in `rpc.corsOrigins`, `rpc.http.vhosts` or `rpc.ws.origins`. */
  WALLET_WITH_ANY_ORIGIN = "WALLET_WITH_ANY_ORIGIN",
  /** `evm_*` or `personal_*` served on mainnet or testnet. */
  DEV_CONTROLS_ON_PUBLIC_NETWORK = "DEV_CONTROLS_ON_PUBLIC_NETWORK",
}

/** One risky configuration found in a node's options. */
export interface RiskyConfiguration {
  code: RiskyConfigurationCode;
  /** What is risky, naming the settings that make it so. */
  risk: string;
  /** The dotted key that accepts it (`unsafe.allowDevControlsOnPublicRpc`). */
  unsafeKey: `unsafe.${keyof UnsafeOptions}`;
  /** Whether that key is set. */
  accepted: boolean;
}

/** The risky configurations of `options`, accepted or not, in a fixed order (empty: none). */
export function riskyConfigurations(options: NodeOptions): RiskyConfiguration[] {
  const risks: RiskyConfiguration[] = [];
  const add = (code: RiskyConfigurationCode, risk: string, key: keyof UnsafeOptions) =>
    risks.push({code, risk, unsafeKey: `unsafe.${key}`, accepted: options.unsafe[key]});
  const controls = devControls(options);
  const wallet = [
    ...(options.wallet.enabled ? ["the dev wallet (wallet.enabled)"] : []),
    ...(options.wallet.keystore ? ["the keystore (wallet.keystore)"] : []),
  ];

  const publicListeners = listeners(options.rpc)
    .filter(([, listener]) => isPublicListener(listener))
    .map(([name, listener]) => `rpc.${name}.host = "${listener.host}"`);
  // admin_addPeer makes the node dial any address it is given: fine on loopback, not for strangers.
  const admin = serves(options, "admin") ? ["admin_* (rpc.modules.admin)"] : [];
  const exposed = [...wallet, ...controls, ...admin];
  if (exposed.length > 0 && publicListeners.length > 0) {
    add(
      RiskyConfigurationCode.DEV_CONTROLS_ON_PUBLIC_RPC,
      `${exposed.join(" and ")} served on ${publicListeners.join(" and ")}, beyond loopback, ` +
        "to anyone who can reach it (there are no API keys)",
      "allowDevControlsOnPublicRpc",
    );
  }

  const anyOrigin = wildcards(options.rpc);
  if (wallet.length > 0 && anyOrigin.length > 0) {
    add(
      RiskyConfigurationCode.WALLET_WITH_ANY_ORIGIN,
      `${wallet.join(" and ")} with ${anyOrigin.join(" and ")}: any web page a user of this ` +
        "machine visits can send transactions signed by the wallet's accounts",
      "allowWalletWithAnyOrigin",
    );
  }

  if ((options.network === "mainnet" || options.network === "testnet") && controls.length > 0) {
    add(
      RiskyConfigurationCode.DEV_CONTROLS_ON_PUBLIC_NETWORK,
      `${controls.join(" and ")} on ${options.network}: development controls on a public network`,
      "allowDevControlsOnPublicNetwork",
    );
  }
  return risks;
}

/**
 * Refuses the first risky configuration not accepted (a `ConfigError`: start-up stops, exit
 * code 2) and logs a warning for each accepted one.
 */
export function checkRiskyConfigurations(options: NodeOptions, logger: Logger): void {
  const risks = riskyConfigurations(options);
  const refused = risks.find((r) => !r.accepted);
  if (refused) throw new ConfigError({code: ConfigErrorCode.RISKY, key: refused.unsafeKey, risk: refused.risk});
  for (const {code, risk, unsafeKey} of risks) {
    logger.warn({risk: code, acceptedBy: unsafeKey}, `unsafe configuration accepted by ${unsafeKey}: ${risk}`);
  }
}

/**
 * Whether a listener is open to whoever reaches it. There are no API keys yet: every listener
 * bound beyond loopback is; once keys exist, a listener that requires one is not.
 */
function isPublicListener(listener: {enabled: boolean; host: string}): boolean {
  return listener.enabled && !isLoopbackHost(listener.host);
}

/** `evm_*`, `anvil_*`, `hardhat_*` (with the miner's dev controls on, without which they refuse) and `personal_*`, where served. */
function devControls(options: NodeOptions): string[] {
  const found: string[] = [];
  for (const namespace of ["evm", "anvil", "hardhat"] as const) {
    if (serves(options, namespace) && options.miner.devControls) {
      found.push(`${namespace}_* (rpc.modules.${namespace}, miner.devControls)`);
    }
  }
  if (serves(options, "personal")) found.push("personal_* (rpc.modules.personal)");
  return found;
}

/**
 * Whether any method of `namespace` answers: the namespace is on, or one of its methods is (a dev
 * method served in another namespace counts as its own: `eth_sendUnsignedTransaction` as anvil's).
 */
function serves(options: NodeOptions, namespace: "evm" | "anvil" | "hardhat" | "personal" | "admin"): boolean {
  const {rpc} = options;
  const listening = rpc.http.enabled || rpc.ws.enabled;
  const on = rpc.modules[namespace]?.enabled ?? isModuleEnabledByDefault(namespace, options.network);
  return (
    listening && (on || rpc.methods.enabled.some((m) => m.startsWith(`${namespace}_`) || DEV_METHODS[m] === namespace))
  );
}

function listeners(rpc: RpcOptions): [string, RpcOptions["http"]][] {
  return [
    ["http", rpc.http],
    ["ws", rpc.ws],
  ];
}

/** The settings that let any web page in: `*` among the CORS origins, HTTP vhosts or WebSocket origins. */
function wildcards(rpc: RpcOptions): string[] {
  const found: string[] = [];
  if (rpc.http.enabled && rpc.corsOrigins?.includes("*")) found.push('rpc.corsOrigins = ["*"]');
  if (rpc.http.enabled && rpc.http.vhosts.includes("*")) found.push('rpc.http.vhosts = ["*"]');
  if (rpc.ws.enabled && rpc.ws.origins.includes("*")) found.push('rpc.ws.origins = ["*"]');
  return found;
}
