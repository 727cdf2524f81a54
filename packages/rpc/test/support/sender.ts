/**
 * A sender admitted without the gateway and without a rate, whose batch cap leaves the dispatch
 * options' own in force: what a test of the reply path sends as.
 */
import type {RequestContext} from "../../src/jsonrpc/registry.ts";
import {OpenAdmission, type Sender} from "../../src/limits/admission.ts";
import {nodeRequestLimits} from "../../src/limits/requestLimits.ts";
import {defaultRpcOptions} from "../../src/options.ts";

export const OPEN_SENDER: Sender = new OpenAdmission(
  nodeRequestLimits({...defaultRpcOptions, maxBatchSize: Number.MAX_SAFE_INTEGER}, "regtest"),
).admit();

/** The principal part of a `RequestContext` for `OPEN_SENDER`. */
export const OPEN_PRINCIPAL: Pick<RequestContext, "principal" | "limits"> = {
  principal: OPEN_SENDER,
  limits: OPEN_SENDER.requestLimits,
};
