/**
 * Booking codes. An order's `shortCode` is what a guest reads out on the phone: eight
 * characters from an alphabet without 0/O and 1/I/L (31^8, about 8.5e11 codes), unique per
 * seller by a unique index (a collision is retried with a new code). An item's `ticketCode`
 * is what a partner stores as its supplier reference: 128 random bits, so it cannot be
 * guessed, unique by index.
 */
import { randomInt } from 'node:crypto';
import { randomHex } from '../../db/ids.js';

export const SHORT_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const SHORT_CODE_LENGTH = 8;
/** Bookings made again with a new short code before giving up (a collision is about one in 10^11). */
export const SHORT_CODE_TRIES = 5;

export function newShortCode(): string {
  let code = '';
  for (let i = 0; i < SHORT_CODE_LENGTH; i++)
    code += SHORT_CODE_ALPHABET[randomInt(SHORT_CODE_ALPHABET.length)];
  return code;
}

/** 32 lowercase hex characters: 8 of seconds, 24 of randomness. */
export const newTicketCode = (now: number = Date.now()): string =>
  (Math.floor(now / 1000) >>> 0).toString(16).padStart(8, '0') + randomHex(12);
