import type * as NodeCrypto from 'node:crypto';

/**
 * SHA-256 as hex, loading node:crypto only when first needed: most gate calls never hash, and
 * loading crypto costs several milliseconds of every agent edit.
 */
let crypto: typeof NodeCrypto | null = null;

export function sha256Hex(text: string): string {
  // getBuiltinModule works the same in the CommonJS gate bundle and in ESM (Node >= 20.16).
  crypto ??= process.getBuiltinModule('node:crypto');
  return crypto.createHash('sha256').update(text).digest('hex');
}

/** A random hex suffix for temp files; Math.random is enough to keep concurrent writers apart. */
export function randomSuffix(): string {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 0xffffffff).toString(16)}`;
}
