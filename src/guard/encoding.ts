/**
 * A file's own encoding (seed D6): for Python the PEP 263 coding cookie on line 1 or 2, otherwise
 * UTF-8; a UTF-8 byte order mark is remembered and kept. Only encodings jscr can write back byte for
 * byte are supported; any other is reported, and the guard then refuses (fail closed).
 */
import type { GuardLanguage } from './languages.js';

/** The encodings the guard can decode and re-encode exactly. */
export type SupportedEncoding = 'utf-8' | 'latin-1' | 'ascii';

/** What `detectEncoding` found. */
export interface FileEncoding {
  /** The encoding to use, or null when the file declares one jscr cannot write. */
  encoding: SupportedEncoding | null;
  /** The name as the file declares it (the cookie), or `utf-8` by default. */
  declared: string;
  /** Whether the bytes start with a UTF-8 byte order mark (kept on write). */
  bom: boolean;
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const COOKIE = /^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)/;

const ALIASES: Record<string, SupportedEncoding> = {
  'utf-8': 'utf-8', utf8: 'utf-8', 'utf-8-sig': 'utf-8',
  'latin-1': 'latin-1', latin1: 'latin-1', 'iso-8859-1': 'latin-1', 'iso8859-1': 'latin-1', l1: 'latin-1',
  'iso-latin-1': 'latin-1', cp819: 'latin-1', '8859': 'latin-1',
  ascii: 'ascii', 'us-ascii': 'ascii', '646': 'ascii',
};

/** The coding cookie Python would honour, read from the first two lines (line 2 only after a comment or blank line 1). */
function pythonCookie(bytes: Buffer): string | null {
  const head = bytes.subarray(0, 4096).toString('latin1').split('\n', 2);
  const [first, second] = head;
  const inFirst = first === undefined ? null : COOKIE.exec(first);
  if (inFirst?.[1]) return inFirst[1];
  if (first !== undefined && second !== undefined && /^[ \t\f]*(#.*)?\r?$/.test(first)) {
    const inSecond = COOKIE.exec(second);
    if (inSecond?.[1]) return inSecond[1];
  }
  return null;
}

/** The file's own encoding, from its bytes and language. */
export function detectEncoding(bytes: Buffer, language: GuardLanguage): FileEncoding {
  const bom = bytes.subarray(0, 3).equals(UTF8_BOM);
  const cookie = language === 'python' ? pythonCookie(bytes) : null;
  if (cookie === null) return { encoding: 'utf-8', declared: 'utf-8', bom };
  const normalised = cookie.toLowerCase().replace(/_/g, '-');
  const known = ALIASES[normalised] ?? (normalised.startsWith('utf-8-') ? 'utf-8' : null);
  // Python refuses a BOM with any cookie but utf-8; so do we.
  if (bom && known !== 'utf-8') return { encoding: null, declared: cookie, bom };
  return { encoding: known, declared: cookie, bom };
}

/** Decode bytes (without the BOM) strictly; null when they are not valid in that encoding. */
export function decodeStrict(bytes: Buffer, encoding: SupportedEncoding): string | null {
  if (encoding === 'utf-8') {
    try {
      return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
    } catch {
      return null;
    }
  }
  if (encoding === 'ascii' && bytes.some((b) => b > 0x7f)) return null;
  return bytes.toString('latin1');
}

/** Where text cannot be held by an encoding: the first offending character, or null when it fits. */
export function firstUnencodable(text: string, encoding: SupportedEncoding): { index: number; codePoint: number } | null {
  const limit = encoding === 'ascii' ? 0x7f : encoding === 'latin-1' ? 0xff : Infinity;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (encoding === 'utf-8') {
      // A lone surrogate (possible in JSON input) has no UTF-8 form.
      if (unit >= 0xd800 && unit <= 0xdbff) {
        const next = text.charCodeAt(i + 1);
        if (next >= 0xdc00 && next <= 0xdfff) {
          i++;
          continue;
        }
        return { index: i, codePoint: unit };
      }
      if (unit >= 0xdc00 && unit <= 0xdfff) return { index: i, codePoint: unit };
    } else if (unit > limit) {
      return { index: i, codePoint: text.codePointAt(i) ?? unit };
    }
  }
  return null;
}

/** Encode text that `firstUnencodable` accepted; the BOM is prepended when the file had one. */
export function encode(text: string, encoding: SupportedEncoding, bom: boolean): Buffer {
  const body = encoding === 'utf-8' ? Buffer.from(text, 'utf8') : Buffer.from(text, 'latin1');
  return bom ? Buffer.concat([UTF8_BOM, body]) : body;
}

/** Strip a UTF-8 BOM from the front of bytes, if there is one. */
export function withoutBom(bytes: Buffer): Buffer {
  return bytes.subarray(0, 3).equals(UTF8_BOM) ? bytes.subarray(3) : bytes;
}
