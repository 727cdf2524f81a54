/**
 * The impersonated accounts of a dev node (anvil_impersonateAccount, anvil_stopImpersonatingAccount,
 * anvil_autoImpersonateAccount; docs/rpc.md §4.10): the senders whose transactions the node sends
 * without their key, their sender carried instead of recovered. The txpool admits such a
 * transaction only from a sender this allows (`ImpersonationPolicy`), and the RPC wallet sends for
 * one. Node state in memory, as in anvil: a restart forgets it (mined transactions keep their sender,
 * the chain records it). Every control refuses where the miner's dev controls are off.
 */

import type {ImpersonationPolicy} from "@xchain/txpool";
import {bytesToHex} from "@xchain/utils";
import {MinerError} from "../errors.ts";
import type {MinerOptions} from "../options.ts";
import {MinerErrorCode} from "../types.ts";

/** What RPC drives: the impersonation controls, and which senders they allow now. */
export interface ImpersonationControls extends ImpersonationPolicy {
  /** Sends from `address` (20 bytes) are executed as if it signed them, until stopped. */
  impersonate(address: Uint8Array): void;
  /** Stops impersonating `address`; whether it was impersonated. */
  stopImpersonating(address: Uint8Array): boolean;
  /** Impersonates every sender while on (anvil's autoImpersonateAccount). */
  setAutoImpersonate(enabled: boolean): void;
  /** Throws NOT_ALLOWED where the dev controls are off (eth_sendUnsignedTransaction asks before it sends). */
  requireEnabled(): void;
}

/** The impersonated senders, and auto-impersonation. */
export class ImpersonatedAccounts implements ImpersonationControls {
  readonly enabled: boolean;
  private readonly addresses = new Set<string>();
  private auto = false;

  /** `opts.devControls`: the miner's option; off, every control refuses and nothing is allowed. */
  constructor(opts: Pick<MinerOptions, "devControls">) {
    this.enabled = opts.devControls;
  }

  impersonate(address: Uint8Array): void {
    this.requireEnabled();
    this.addresses.add(bytesToHex(address));
  }

  stopImpersonating(address: Uint8Array): boolean {
    this.requireEnabled();
    return this.addresses.delete(bytesToHex(address));
  }

  setAutoImpersonate(enabled: boolean): void {
    this.requireEnabled();
    this.auto = enabled;
  }

  allows(sender: Uint8Array): boolean {
    return this.enabled && (this.auto || this.addresses.has(bytesToHex(sender)));
  }

  requireEnabled(): void {
    if (!this.enabled) {
      throw new MinerError({
        code: MinerErrorCode.NOT_ALLOWED,
        reason: "impersonation is a development control, disabled on this network (miner.devControls)",
      });
    }
  }
}
