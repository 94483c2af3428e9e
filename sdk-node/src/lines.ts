// Splits the input into lines of UTF-8 text: one message per line, with
// no length limit. A long line arriving in many chunks is joined once, when
// its newline comes, not scanned again for every chunk.

const NL = 0x0a;
// fatal: JSON is UTF-8, and text with bad bytes replaced is not what the
// host sent. ignoreBOM: a byte order mark stays, and is no JSON.
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** A line's text, or undefined when its bytes are not UTF-8. */
export type Line = string | undefined;

/** @internal */
export class LineReader {
  private parts: Uint8Array[] = [];

  /** Takes the next chunk of input, and hands each line it completes to emit. */
  push(chunk: Uint8Array, emit: (line: Line) => void): void {
    let start = 0;
    for (let nl = chunk.indexOf(NL, start); nl >= 0; nl = chunk.indexOf(NL, start)) {
      const tail = chunk.subarray(start, nl);
      const bytes = this.parts.length === 0 ? tail : Buffer.concat([...this.parts, tail]);
      this.parts = [];
      emit(decode(bytes));
      start = nl + 1;
    }
    if (start < chunk.length) this.parts.push(chunk.subarray(start));
  }

  /** The input has ended: hands a last line without a newline to emit. */
  end(emit: (line: Line) => void): void {
    if (this.parts.length === 0) return;
    const bytes = Buffer.concat(this.parts);
    this.parts = [];
    emit(decode(bytes));
  }
}

function decode(bytes: Uint8Array): Line {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}
