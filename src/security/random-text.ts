/**
 * Random text of letters and digits only (A-Z, a-z, 0-9), for credentials a person pastes
 * into forms that accept nothing else (a channel manager's connection form refuses `-` and
 * `_`). Unbiased: a byte is used only below 248 (4 x 62), so every character is equally
 * likely and each carries log2(62) = 5.95 bits.
 */
import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const LIMIT = 248;

/** Characters needed for at least `bits` bits of entropy. */
export const charactersFor = (bits: number): number => Math.ceil(bits / Math.log2(ALPHABET.length));

export function randomAlphanumeric(length: number): string {
  let text = '';
  while (text.length < length) {
    // A few spare bytes: about 3% are dropped, so one draw almost always suffices.
    for (const byte of randomBytes(length - text.length + 8)) {
      if (byte >= LIMIT) continue;
      text += ALPHABET[byte % ALPHABET.length];
      if (text.length === length) break;
    }
  }
  return text;
}
