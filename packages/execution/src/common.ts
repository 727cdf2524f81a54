/**
 * The @ethereumjs/common configuration of a Rootstock network: shanghai + EIPs 1153 (transient
 * storage) and 5656 (MCOPY), the chain id, the gas profile's params, and the node's own crypto
 * (native secp256k1 recovery for the ecrecover precompile).
 */
import {type Common, createCustomCommon, Hardfork, Mainnet, type ParamsDict} from "@ethereumjs/common";
import {paramsEVM} from "@ethereumjs/evm";
import {setLengthLeft} from "@ethereumjs/util";
import type {Chainspec} from "@xchain/chainspec";
import {keccak256, recoverPublicKey} from "@xchain/utils";
import type {GasProfile} from "./gas/gasProfile.ts";
import {gasProfileAt} from "./gas/profile.ts";

/** The hardfork and extra EIPs that give rskj's opcode set (docs/dependencies.md §4.1). */
export const RSK_HARDFORK = Hardfork.Shanghai;
/** EIP-1153 (TLOAD/TSTORE, RSKIP-446) and EIP-5656 (MCOPY, RSKIP-445). */
export const RSK_EIPS: readonly number[] = [1153, 5656];

const paramsByProfile = new WeakMap<GasProfile, ParamsDict>();

/**
 * The complete EVM params with `profile`'s values scoped to shanghai (docs/protocol/gas.md §11.2: pass all of
 * them, `createEVM` replaces the Common's params with what it is given). Common copies them.
 */
export function profileParams(profile: GasProfile): ParamsDict {
  let params = paramsByProfile.get(profile);
  if (!params) {
    params = {...structuredClone(paramsEVM), [RSK_HARDFORK]: {...profile.params}};
    paramsByProfile.set(profile, params);
  }
  return params;
}

// ecrecover as @ethereumjs/common calls it: v is 27/28 (or an EIP-155 v with its chain id).
function ecrecover(msgHash: Uint8Array, v: bigint, r: Uint8Array, s: Uint8Array, chainId?: bigint): Uint8Array {
  const recovery = v === 0n || v === 1n ? v : chainId === undefined ? v - 27n : v - (2n * chainId + 35n);
  return recoverPublicKey(msgHash, setLengthLeft(r, 32), setLengthLeft(s, 32), Number(recovery));
}

/** The Common of `chainspec`'s network at `height` (its gas profile's params). */
export function createChainCommon(chainspec: Chainspec, height = 0): Common {
  return createProfileCommon(chainspec, gasProfileAt(chainspec, height));
}

/** The Common of `chainspec`'s network under `profile`. */
export function createProfileCommon(chainspec: Chainspec, profile: GasProfile): Common {
  return createCustomCommon({name: `xchain-${chainspec.params.name}`, chainId: chainspec.params.chainId}, Mainnet, {
    hardfork: RSK_HARDFORK,
    eips: [...RSK_EIPS],
    params: profileParams(profile),
    customCrypto: {keccak256, ecrecover},
  });
}

/** The Common in force at each height, one per gas profile, made once and reused (docs/dependencies.md §5.1). */
export class ProfileCommons {
  private readonly commons = new Map<GasProfile, Common>();

  constructor(private readonly chainspec: Chainspec) {}

  /** The Common in force at `height`. */
  at(height: number): Common {
    const profile = gasProfileAt(this.chainspec, height);
    let common = this.commons.get(profile);
    if (!common) {
      common = createProfileCommon(this.chainspec, profile);
      this.commons.set(profile, common);
    }
    return common;
  }
}
