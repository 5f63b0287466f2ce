/**
 * What OCTo's booking requests carry, read for the orders module, and the orders module's
 * refusals read back as OCTo's codes: a booking uuid in a path (never a database error), a
 * contact as the order's customer fields, refusals as INVALID_BOOKING_UUID,
 * INVALID_AVAILABILITY_ID, UNPROCESSABLE_ENTITY or (a credential revoked meanwhile) FORBIDDEN.
 */
import { DomainError } from '../../domain/errors.js';
import { ResellerRefusal, type ContactGiven } from '../orders/index.js';
import type { OctoBookingContactInput } from './octo.bodies.js';
import { fail, OctoProblem } from './octo.errors.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A booking uuid in a path: lowercase, or INVALID_BOOKING_UUID (never a database error). */
export function uuidOf(text: string): string {
  if (!UUID.test(text)) fail('INVALID_BOOKING_UUID', text);
  return text.toLowerCase();
}

/** The order's customer fields from an OCTo contact, and the whole contact as sent. */
export function contactGiven(contact: OctoBookingContactInput | undefined): ContactGiven | null {
  if (contact === undefined) return null;
  const parts = [contact.firstName, contact.lastName].filter((p) => p?.trim());
  const name = contact.fullName?.trim() || parts.join(' ').trim() || null;
  return {
    name,
    email: contact.emailAddress ?? null,
    phone: contact.phoneNumber?.trim() || null,
    sent: contact,
  };
}

/** The refusals of the orders module, as OCTo's codes. */
function translate(error: unknown, uuid: string | undefined): never {
  if (error instanceof ResellerRefusal) {
    if (error.kind === 'unknown_booking' || error.kind === 'uuid_reused')
      fail('INVALID_BOOKING_UUID', uuid ?? '', error.detail);
    if (error.kind === 'too_many_to_list') fail('BAD_REQUEST', error.detail);
    // Revoked while the request was under way: as the credential is now answered.
    if (error.kind === 'credential_revoked') fail('FORBIDDEN', error.detail);
    fail('UNPROCESSABLE_ENTITY', error.detail);
  }
  if (error instanceof DomainError) {
    if (error.code === 'not_scheduled') fail('INVALID_AVAILABILITY_ID', '', error.detail);
    // The experience deleted or hidden since the request was checked.
    if (error.code === 'not_found') fail('INVALID_PRODUCT_ID', '', error.detail);
    if (
      ['capacity_exceeded', 'resource_full', 'departure_started', 'validation_failed'].includes(
        error.code,
      )
    )
      fail('UNPROCESSABLE_ENTITY', error.detail);
  }
  throw error;
}

/** Runs a use case of the orders module, its refusals answered as OCTo's codes. */
export const guarded = async <T>(uuid: string | undefined, work: () => Promise<T>): Promise<T> => {
  try {
    return await work();
  } catch (error) {
    if (error instanceof OctoProblem) throw error;
    return translate(error, uuid);
  }
};
