/**
 * Validates a file of consecutive block headers (one full-RLP hex string per line, oldest
 * first) as `xchain verify-headers` does: the standalone rules for every header, the
 * parent-dependent rules from the second line on, and fork-detection data wherever the
 * file holds the ancestors it needs. Each header's parent is the header decoded from the
 * previous line, valid or not, so one forged header costs at most two lines: itself, and its
 * successor whose parentHash no longer matches. Only valid headers serve as ancestors for the
 * fork-detection data.
 */
import type {Chainspec} from "@xchain/chainspec";
import {
  checkForkDetectionData,
  type HeaderAncestry,
  validateHeaderAgainstParent,
  validateHeaderStandalone,
} from "@xchain/consensus";
import {BlockHeader} from "@xchain/primitives";
import {hexToBytesOrNull, NodeError} from "@xchain/utils";

/** The verdict on one line of the file. */
export type HeaderVerdict =
  | {line: number; valid: true; header: BlockHeader; forkDetectionChecked: boolean}
  | {line: number; valid: false; header?: BlockHeader; code: string; detail: string};

/** Code reported for a line that is not a hex string at all. */
export const MALFORMED_LINE_CODE = "HEADER_DECODE_NOT_HEX";

// Fork-detection data of block N reads ancestors down to floor((N-1)/64)*64 - 384, at most 448
// blocks back; keep a little more than that so memory stays bounded on long files.
const ANCESTRY_WINDOW = 512;

/** Verifies header lines in order; `nowSeconds` is the local clock for the future-timestamp rule. */
export class HeaderFileVerifier {
  private readonly accepted = new Map<number, BlockHeader>();
  /** The header decoded from the previous line, if it decoded. */
  private previous: BlockHeader | undefined;
  private current: BlockHeader | undefined;
  private linesSeen = 0;

  constructor(
    private readonly chainspec: Chainspec,
    private readonly nowSeconds: number,
  ) {}

  /** Verifies the next header line; `line` is its line number in the file, for the report. */
  verifyLine(text: string, line: number): HeaderVerdict {
    const isFirst = this.linesSeen++ === 0;
    const hex = text.trim().replace(/^0x/, "");
    const bytes = hexToBytesOrNull(hex);
    this.previous = this.current;
    this.current = undefined;
    if (bytes === null || bytes.length === 0) {
      return {line, valid: false, code: MALFORMED_LINE_CODE, detail: "line is not a non-empty even-length hex string"};
    }
    let header: BlockHeader | undefined;
    try {
      header = BlockHeader.decode(bytes, this.chainspec);
      this.current = header;
      validateHeaderStandalone(header, this.chainspec, {nowSeconds: this.nowSeconds});
      if (!isFirst) {
        if (!this.previous) throw new ParentUnavailableError();
        validateHeaderAgainstParent(header, this.previous, this.chainspec);
      }
      const fdd = checkForkDetectionData(header, this.ancestry(), this.chainspec);
      this.accept(header);
      return {line, valid: true, header, forkDetectionChecked: fdd.checked};
    } catch (e) {
      if (e instanceof NodeError) return {line, valid: false, header, code: e.code, detail: e.message};
      throw e;
    }
  }

  private ancestry(): HeaderAncestry {
    return {headerByNumber: (n) => this.accepted.get(n)};
  }

  private accept(header: BlockHeader): void {
    this.accepted.set(header.number, header);
    this.accepted.delete(header.number - ANCESTRY_WINDOW);
  }
}

/** The previous line did not decode, so this header's parent-dependent rules cannot run. */
class ParentUnavailableError extends NodeError<{code: "HEADER_PARENT_UNAVAILABLE"}> {
  constructor() {
    super({code: "HEADER_PARENT_UNAVAILABLE"}, "the previous line does not decode, so this header's parent is unknown");
  }
}
