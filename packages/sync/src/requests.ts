/** Requests to one peer, their failures turned into `SyncError` REQUEST_FAILED (the network already scored the peer). */
import {errorDetail, SyncError, SyncErrorCode} from "./errors.ts";

/** Runs a request to `peer`; a rejection becomes REQUEST_FAILED naming the request. */
export async function requestFromPeer<T>(peer: string, request: string, send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (e) {
    if (e instanceof SyncError) throw e;
    throw new SyncError({code: SyncErrorCode.REQUEST_FAILED, peer, request, detail: errorDetail(e)});
  }
}
