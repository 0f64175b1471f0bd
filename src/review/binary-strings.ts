/**
 * The text inside binary content, for the secret detector: a key pasted into a file with a NUL byte
 * (a UTF-16 `.env`, a `.dat` blob, a database dump) is as leaked as one in a text file, and binary
 * data is otherwise never read. Like `strings(1)`: runs of printable ASCII, and of printable ASCII
 * written as UTF-16 in either byte order, one run a line, in the order they appear.
 */

/** Shorter runs are noise in any binary file; every secret the detector knows is longer than this. */
const MIN_RUN_CHARS = 8;

function isPrintable(byte: number): boolean {
  return (byte >= 0x20 && byte <= 0x7e) || byte === 0x09;
}

/**
 * The printable runs of `bytes`, each character `width` bytes wide: one printable byte, for UTF-16
 * followed by a zero byte. Both alignments are read, so big-endian text is the odd alignment's runs.
 */
function runs(bytes: Buffer, width: 1 | 2, out: string[]): void {
  for (let offset = 0; offset < width; offset++) {
    let run = '';
    for (let i = offset; i + width <= bytes.length; i += width) {
      const char = bytes[i] as number;
      const zero = width === 1 ? 0 : (bytes[i + 1] as number);
      if (zero === 0 && isPrintable(char)) run += String.fromCharCode(char);
      else {
        if (run.length >= MIN_RUN_CHARS) out.push(run);
        run = '';
      }
    }
    if (run.length >= MIN_RUN_CHARS) out.push(run);
  }
}

/** The printable strings of binary content, one a line (ASCII runs, then UTF-16 runs). */
export function binaryStrings(bytes: Buffer): string {
  const out: string[] = [];
  runs(bytes, 1, out);
  runs(bytes, 2, out);
  return out.join('\n');
}
