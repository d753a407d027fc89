// API keys: `ak_live_` or `ak_test_` and 32 random base62 characters. Only a SHA-256 hash is
// stored; the keys carry 190 bits of randomness, so a fast hash is enough (no password stretching
// needed), and it keeps authentication a single indexed lookup per request.
import { createHash, randomBytes } from 'node:crypto';
import type { Mode } from './states.js';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SECRET_LENGTH = 32;
/** docs/decisions.md#administration: the prefix shown by GET /account is the first 12 characters. */
export const KEY_PREFIX_LENGTH = 12;

export function generateKeySecret(mode: Mode): string {
  // Rejection sampling keeps every character equally likely.
  let out = '';
  while (out.length < SECRET_LENGTH) {
    for (const byte of randomBytes(48)) {
      if (byte < 248 && out.length < SECRET_LENGTH) out += ALPHABET[byte % 62];
    }
  }
  return `ak_${mode}_${out}`;
}

export function hashKeySecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function keyModeOf(secret: string): Mode | null {
  if (secret.startsWith('ak_live_')) return 'live';
  if (secret.startsWith('ak_test_')) return 'test';
  return null;
}

export function keyPrefix(secret: string): string {
  return secret.slice(0, KEY_PREFIX_LENGTH);
}
