/** The `[bridge]` table: the Bridge's genesis federation on a private network (docs/protocol/native-contracts.md §10.3). */
import {MAX_FEDERATION_KEYS} from "@xchain/chainspec";
import type {ConfigKey} from "../configKey.ts";

export const bridgeKeys: readonly ConfigKey[] = [
  {
    key: "bridge.genesisFederationPublicKeys",
    kind: {type: "strings", maxItems: MAX_FEDERATION_KEYS, maxLength: 68},
    placeholder: "keys",
    description: `the genesis federation's compressed public keys (hex, at most ${MAX_FEDERATION_KEYS}) in place of the network's (the Bridge's and REMASC's federators), as rskj's genesis_constants.federationPublicKeys: a private network whose operators hold the federators' keys; regtest and custom only, every node of the network alike; [] keeps the network's (comma-separated as a flag)`,
  },
];
