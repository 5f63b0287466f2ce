/**
 * The spec oracle (test/helpers/octo-spec.ts) itself: it must pass what the specification
 * allows and fail what it does not, or every OCTo test built on it proves nothing.
 */
import { describe, expect, it } from 'vitest';
import {
  octoErrorProblems,
  octoObjectProblems,
  octoResponseProblems,
} from '../../helpers/octo-spec.js';

const supplier = {
  id: 'seller-1',
  name: 'Seine Boats',
  endpoint: 'https://api.example.com/octo',
  contact: { website: null, email: null, telephone: null, address: null },
};

const contact = {
  fullName: null,
  firstName: null,
  lastName: null,
  emailAddress: null,
  phoneNumber: null,
  locales: [],
  postalCode: null,
  country: null,
  notes: null,
};

describe('the OCTo spec oracle', () => {
  it('passes a conforming answer', () => {
    expect(octoResponseProblems('Suppliers_get', supplier)).toEqual([]);
    expect(octoObjectProblems('Contact', contact)).toEqual([]);
  });

  it('fails a missing required field, naming it', () => {
    const { endpoint: _endpoint, ...rest } = supplier;
    expect(octoResponseProblems('Suppliers_get', rest).join()).toContain('endpoint');
  });

  it('fails a null where the specification allows none, and a wrong enum value', () => {
    expect(octoResponseProblems('Suppliers_get', { ...supplier, name: null })).not.toEqual([]);
    expect(
      octoObjectProblems('Ticket', {
        redemptionMethod: 'SCAN',
        utcRedeemedAt: null,
        deliveryOptions: [],
      }),
    ).not.toEqual([]);
  });

  it('fails a field the specification does not define, nested too', () => {
    expect(octoResponseProblems('Suppliers_get', { ...supplier, logo: 'x' })).toEqual([
      'logo: not a field of the specification',
    ]);
    expect(
      octoResponseProblems('Suppliers_get', {
        ...supplier,
        contact: { ...supplier.contact, fax: null },
      }),
    ).toEqual(['contact.fax: not a field of the specification']);
  });

  it('holds utc fields to UTC', () => {
    const ticket = { redemptionMethod: 'DIGITAL', deliveryOptions: [] };
    const item = {
      uuid: 'u',
      resellerReference: null,
      supplierReference: null,
      unitId: 'adult',
      status: 'CONFIRMED',
      contact,
      ticket: { ...ticket, utcRedeemedAt: null },
    };
    expect(
      octoObjectProblems('UnitItem', { ...item, utcRedeemedAt: '2030-06-01T09:00:00Z' }),
    ).toEqual([]);
    expect(
      octoObjectProblems('UnitItem', { ...item, utcRedeemedAt: '2030-06-01T09:00:00+02:00' }),
    ).not.toEqual([]);
  });

  it('checks an error body against its own code', () => {
    const body = { error: 'INVALID_PRODUCT_ID', errorMessage: 'no', productId: 'x' };
    expect(octoErrorProblems('INVALID_PRODUCT_ID', body)).toEqual([]);
    expect(octoErrorProblems('INVALID_PRODUCT_ID', { ...body, productId: undefined })).not.toEqual(
      [],
    );
    expect(octoErrorProblems('BAD_REQUEST', body)).not.toEqual([]);
  });
});
