/** The `[unsafe]` table: `UnsafeOptions`, each key accepting one risky configuration (config/risks.ts). */
import type {ConfigKey} from "../configKey.ts";

/** Off by default: the configuration it names is refused at start-up. */
export const unsafeKeys: readonly ConfigKey[] = [
  {
    key: "unsafe.allowDevControlsOnPublicRpc",
    kind: {type: "boolean"},
    description: "start with the dev wallet, evm_* or personal_* on an RPC listener bound beyond loopback",
  },
  {
    key: "unsafe.allowWalletWithAnyOrigin",
    kind: {type: "boolean"},
    description: 'start with the dev wallet and "*" in rpc.corsOrigins, rpc.http.vhosts or rpc.ws.origins',
  },
  {
    key: "unsafe.allowDevControlsOnPublicNetwork",
    kind: {type: "boolean"},
    description: "start with evm_* or personal_* served on mainnet or testnet",
  },
];
