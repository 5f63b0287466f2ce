/**
 * Our TypeBox schemas held to the OCTo specification: every field we answer with is one the
 * specification defines on that object, and every field it requires we require; every field
 * of a request body the specification defines we accept, and the bodies OCTo's validator
 * sends pass our schemas (Ajv as the service configures it for bodies: strict, formats).
 */
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { TObject } from 'typebox';
import { describe, expect, it } from 'vitest';
import * as octo from '../../../src/modules/octo/index.js';
import {
  specAcceptsBody,
  specBodyFields,
  specFields,
  type SPEC_BODIES,
} from '../../helpers/octo-spec.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = addFormats(new Ajv({ strict: false, coerceTypes: false, removeAdditional: false }));
for (const schema of [...octo.OCTO_REQUEST_SCHEMAS, ...octo.OCTO_RESPONSE_SCHEMAS, octo.OctoError])
  ajv.addSchema(schema);
const compiled = (schema: TObject) => ajv.getSchema((schema as unknown as { $id: string }).$id)!;

const required = (schema: TObject) => (schema as { required?: string[] }).required ?? [];

/** Our response objects and the specification's object of the same meaning. */
const OBJECTS = [
  [octo.OctoSupplier, 'Supplier'],
  [octo.OctoProduct, 'Product'],
  [octo.OctoOption, 'Option'],
  [octo.OctoUnit, 'Unit'],
  [octo.OctoAvailability, 'Availability'],
  [octo.OctoAvailabilityCalendarDay, 'AvailabilityCalendar'],
  [octo.OctoBooking, 'Booking'],
  [octo.OctoUnitItem, 'UnitItem'],
  [octo.OctoContact, 'Contact'],
  [octo.OctoTicket, 'Ticket'],
  [octo.OctoPricing, 'Pricing'],
  [octo.OctoCapability, 'Capability'],
] as const;

const PRICING_FIELDS = [
  'pricing',
  'pricingFrom',
  'unitPricing',
  'unitPricingFrom',
  'defaultCurrency',
  'availableCurrencies',
  'pricingPer',
];

describe('response schemas follow the specification', () => {
  it.each(OBJECTS.map(([schema, name]) => [name, schema] as const))('%s', (name, schema) => {
    const spec = specFields(name);
    const ours = Object.keys(schema.properties);
    expect(ours.filter((f) => !spec.required.includes(f) && !spec.optional.includes(f))).toEqual(
      [],
    );
    expect(spec.required.filter((f) => !required(schema).includes(f))).toEqual([]);
    // The fields of octo/pricing appear only when asked for: optional here too.
    expect(required(schema).filter((f) => PRICING_FIELDS.includes(f))).toEqual([]);
  });
});

const BODIES: [TObject, keyof typeof SPEC_BODIES][] = [
  [octo.OctoAvailabilityCheckBody, 'AvailabilityCheck'],
  [octo.OctoAvailabilityCalendarBody, 'AvailabilityCalendar'],
  [octo.OctoBookingReservationBody, 'BookingReservation'],
  [octo.OctoBookingConfirmationBody, 'BookingConfirmation'],
  [octo.OctoBookingUpdateBody, 'BookingUpdate'],
  [octo.OctoExtendReservationBody, 'ExtendReservation'],
  [octo.OctoBookingCancellationBody, 'BookingCancellation'],
  [octo.OctoBookingContactBody, 'BookingContact'],
];

describe('request schemas accept the specification', () => {
  it.each(BODIES.map(([schema, name]) => [name, schema] as const))('%s', (name, schema) => {
    const spec = specBodyFields(name);
    expect([...spec.required, ...spec.optional].filter((f) => !(f in schema.properties))).toEqual(
      [],
    );
    // Required here only what the specification requires (unitItems is checked by the
    // service, so that a missing one is UNPROCESSABLE_ENTITY, as OCTo's validator expects).
    expect(required(schema).filter((f) => !spec.required.includes(f))).toEqual([]);
  });

  const UUID = '559aed3d-6d5b-4fe0-bfca-99f5e7218a56';
  const contact = {
    firstName: 'John',
    lastName: 'Doe',
    emailAddress: 'johndoe@mail.com',
    fullName: 'John Doe',
    notes: 'Test note',
  };
  /** Bodies as OCTo's validator and the specification's examples send them. */
  const SENT: [TObject, keyof typeof SPEC_BODIES, unknown][] = [
    [
      octo.OctoAvailabilityCheckBody,
      'AvailabilityCheck',
      {
        productId: 'p',
        optionId: 'DEFAULT',
        localDateStart: '2030-06-01',
        localDateEnd: '2030-06-30',
      },
    ],
    [
      octo.OctoAvailabilityCheckBody,
      'AvailabilityCheck',
      {
        productId: 'p',
        optionId: 'DEFAULT',
        availabilityIds: ['2030-06-01T09:00:00+02:00'],
        units: [{ id: 'adult', quantity: 2 }],
        currency: 'EUR',
      },
    ],
    [
      octo.OctoAvailabilityCalendarBody,
      'AvailabilityCalendar',
      {
        productId: 'p',
        optionId: 'DEFAULT',
        localDateStart: '2030-06-01',
        localDateEnd: '2031-05-31',
        currency: null,
      },
    ],
    [
      octo.OctoBookingReservationBody,
      'BookingReservation',
      {
        productId: 'p',
        optionId: 'DEFAULT',
        availabilityId: '2030-06-01T09:00:00+02:00',
        unitItems: [{ unitId: 'adult' }, { unitId: 'adult' }],
      },
    ],
    [
      octo.OctoBookingReservationBody,
      'BookingReservation',
      {
        uuid: UUID,
        productId: 'p',
        optionId: 'DEFAULT',
        availabilityId: 'x',
        expirationMinutes: 30,
        notes: null,
        resellerReference: 'VOUCHER-0123',
        unitItems: [{ uuid: UUID, unitId: 'adult', resellerReference: 'r', contact }],
        contact: { ...contact, locales: ['en', 'en-GB'], country: 'GB' },
      },
    ],
    [
      octo.OctoBookingConfirmationBody,
      'BookingConfirmation',
      { contact, resellerReference: 'REF-1' },
    ],
    [octo.OctoBookingConfirmationBody, 'BookingConfirmation', { contact: {} }],
    [
      octo.OctoBookingConfirmationBody,
      'BookingConfirmation',
      { contact, resellerReference: 'REF-1', unitItems: [{ unitId: 'adult' }], emailReceipt: true },
    ],
    [
      octo.OctoBookingUpdateBody,
      'BookingUpdate',
      {
        contact: { ...contact, phoneNumber: '+00000000', country: 'GB', locales: ['en'] },
        notes: 'Test note',
      },
    ],
    [
      octo.OctoBookingUpdateBody,
      'BookingUpdate',
      {
        productId: 'p2',
        optionId: 'DEFAULT',
        availabilityId: 'a',
        unitItems: [{ unitId: 'adult' }],
      },
    ],
    [octo.OctoExtendReservationBody, 'ExtendReservation', { expirationMinutes: 31 }],
    [
      octo.OctoBookingCancellationBody,
      'BookingCancellation',
      { reason: 'Reason for cancellation' },
    ],
    [octo.OctoBookingCancellationBody, 'BookingCancellation', {}],
  ];

  it.each(SENT.map(([schema, name, body]) => [name, schema, body] as const))(
    'a %s body the specification allows passes (%#)',
    (name, schema, body) => {
      expect(specAcceptsBody(name, body)).toBe(true);
      const validate = compiled(schema);
      expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    },
  );

  it('refuses a field the specification does not define, and holds below 5 minutes', () => {
    const reserve = compiled(octo.OctoBookingReservationBody);
    expect(reserve({ productId: 'p', optionId: 'DEFAULT', offerCode: 'X' })).toBe(false);
    expect(compiled(octo.OctoExtendReservationBody)({ expirationMinutes: 4 })).toBe(false);
    expect(compiled(octo.OctoExtendReservationBody)({ expirationMinutes: 1441 })).toBe(false);
  });

  it('lets unknown ids through to the service (their own codes, not BAD_REQUEST)', () => {
    const reserve = compiled(octo.OctoBookingReservationBody);
    expect(
      reserve({
        productId: 'invalidProductId',
        optionId: 'invalidOptionId',
        availabilityId: 'invalidAvailabilityId',
        unitItems: [{ unitId: 'invalidUnitId' }],
      }),
    ).toBe(true);
  });
});
