/**
 * Validates a file of consecutive block headers (one full-RLP hex string per line, oldest
 * first) as `xchain verify-headers` does, or the headers rebuilt from a node's JSON blocks
 * (`--rpc`, `verifyHeader`): the standalone rules for every header, the
 * parent-dependent rules from the second line on, and fork-detection data wherever the
 * file holds the ancestors it needs. Each header's parent is the header decoded from the
 * previous line, valid or not, so one forged header costs at most two lines: itself, and its
 * successor whose parentHash no longer matches. Only valid headers serve as ancestors for the
 * fork-detection data.
 */
import type {Chainspec} from "@xchain/chainspec";
import {
  checkForkDetectionData,
  type ForkDetectionCheck,
  type HeaderAncestry,
  validateHeaderAgainstParent,
  validateHeaderStandalone,
} from "@xchain/consensus";
import {BlockHeader, HeaderDecodeError, HeaderDecodeErrorCode} from "@xchain/primitives";
import {hexToBytesOrNull, NodeError} from "@xchain/utils";

/** The verdict on one line of the file. */
export type HeaderVerdict =
  | {line: number; valid: true; header: BlockHeader; forkDetectionChecked: boolean; forkDetection: ForkDetectionCheck}
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
    const hex = text.trim().replace(/^0x/, "");
    const bytes = hexToBytesOrNull(hex);
    if (bytes === null || bytes.length === 0) {
      this.skip();
      return {line, valid: false, code: MALFORMED_LINE_CODE, detail: "line is not a non-empty even-length hex string"};
    }
    let header: BlockHeader;
    try {
      header = BlockHeader.decode(bytes, this.chainspec);
    } catch (e) {
      this.skip();
      if (e instanceof NodeError) return {line, valid: false, code: e.code, detail: e.message + hashEncodingHint(e)};
      throw e;
    }
    return this.verifyHeader(header, line);
  }

  /**
   * Verifies the next header of the sequence, decoded (or rebuilt) by the caller; `line` is its position
   * for the report (a line number, or a block number).
   */
  verifyHeader(header: BlockHeader, line: number): HeaderVerdict {
    const isFirst = this.linesSeen++ === 0;
    this.previous = this.current;
    this.current = header;
    try {
      validateHeaderStandalone(header, this.chainspec, {nowSeconds: this.nowSeconds});
      if (!isFirst) {
        if (!this.previous) throw new ParentUnavailableError();
        validateHeaderAgainstParent(header, this.previous, this.chainspec);
      }
      const forkDetection = checkForkDetectionData(header, this.ancestry(), this.chainspec);
      this.accept(header);
      return {line, valid: true, header, forkDetectionChecked: forkDetection.checked, forkDetection};
    } catch (e) {
      if (e instanceof NodeError) return {line, valid: false, header, code: e.code, detail: e.message};
      throw e;
    }
  }

  /** Takes the next position as holding no usable header: its successor's parent rules cannot run. */
  skip(): void {
    this.linesSeen++;
    this.previous = this.current;
    this.current = undefined;
  }

  private ancestry(): HeaderAncestry {
    return {headerByNumber: (n) => this.accepted.get(n)};
  }

  private accept(header: BlockHeader): void {
    this.accepted.set(header.number, header);
    this.accepted.delete(header.number - ANCESTRY_WINDOW);
  }
}

/** Element count of the hash encoding of a header with ummRoot: 16 base fields, ummRoot, the Bitcoin header. */
const HASH_ENCODING_FIELD_COUNT = 18;

/** Says what an 18-element header is (docs/protocol/header.md §3.2) and what to run instead. */
function hashEncodingHint(e: NodeError<{code: string}>): string {
  if (!(e instanceof HeaderDecodeError)) return "";
  const {type} = e;
  if (type.code !== HeaderDecodeErrorCode.WRONG_FIELD_COUNT || type.count !== HASH_ENCODING_FIELD_COUNT) return "";
  return (
    ": 18 is the encoding the block hash covers (base fields, ummRoot, Bitcoin header), which " +
    "xchain_getRawBlockHeaderByNumber/ByHash and rskj's rsk_getRawBlockHeaderBy* return; it lacks the " +
    "merged-mining merkle proof and coinbase that proof of work needs. Verify a node's blocks with " +
    "`xchain verify-headers --rpc URL --from N --to M` instead"
  );
}

/** The previous header could not be read, so this header's parent-dependent rules cannot run. */
class ParentUnavailableError extends NodeError<{code: "HEADER_PARENT_UNAVAILABLE"}> {
  constructor() {
    super(
      {code: "HEADER_PARENT_UNAVAILABLE"},
      "the previous header could not be read, so this header's parent is unknown",
    );
  }
}
