/**
 * OCTo's booking routes under /octo (tag `OCTo`): reserve, confirm, extend, update, cancel
 * (POST .../cancel and DELETE), get and list. Each handler is one service call; each summary
 * names the specification's operation.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { refTo } from '../../http/schemas.js';
import {
  OctoBookingCancellationBody,
  type OctoBookingCancellationInput,
  OctoBookingConfirmationBody,
  OctoBookingParams,
  OctoBookingReservationBody,
  OctoBookingUpdateBody,
  OctoExtendReservationBody,
  OctoGetBookingsQuery,
} from './octo.bodies.js';
import { OctoBooking, OctoBookings } from './octo.schemas.js';
import type { OctoBookingsService } from './octo-bookings.service.js';
import { octoSchema } from './octo.routes.js';
import { capabilitiesOf, resellerOf } from './octo-scope.js';

const BookingRef = refTo(OctoBooking);

export const octoBookingRoutes: FastifyPluginAsyncTypebox<{
  bookings: OctoBookingsService;
}> = async (app, { bookings }) => {
  app.post(
    '/bookings',
    {
      schema: octoSchema(
        'reserveOctoBooking',
        'Reserve: the seats held (ON_HOLD) for expirationMinutes (default 30, 5 to 1440); the same uuid and body again is the same booking (OCTo Bookings_BookingReservation)',
        { body: refTo(OctoBookingReservationBody), response: { 200: BookingRef } },
      ),
    },
    async (request) => bookings.reserve(resellerOf(request), request.body, capabilitiesOf(request)),
  );

  app.post(
    '/bookings/:uuid/confirm',
    {
      schema: octoSchema(
        'confirmOctoBooking',
        'Confirm a hold before its deadline, with its contact (and other unit items if sent) (OCTo Bookings_BookingConfirmation)',
        {
          params: OctoBookingParams,
          body: refTo(OctoBookingConfirmationBody),
          response: { 200: BookingRef },
        },
      ),
    },
    async (request) =>
      bookings.confirm(
        resellerOf(request),
        request.params.uuid,
        request.body,
        capabilitiesOf(request),
      ),
  );

  app.post(
    '/bookings/:uuid/extend',
    {
      schema: octoSchema(
        'extendOctoBooking',
        'Extend a hold: its deadline becomes now plus expirationMinutes (OCTo Bookings_ExtendReservation)',
        {
          params: OctoBookingParams,
          body: refTo(OctoExtendReservationBody),
          response: { 200: BookingRef },
        },
      ),
    },
    async (request) =>
      bookings.extend(
        resellerOf(request),
        request.params.uuid,
        request.body,
        capabilitiesOf(request),
      ),
  );

  app.patch(
    '/bookings/:uuid',
    {
      schema: octoSchema(
        'updateOctoBooking',
        'Change a live booking: another availability or product, unit items, contact, notes, reference (OCTo Bookings_BookingUpdate)',
        {
          params: OctoBookingParams,
          body: refTo(OctoBookingUpdateBody),
          response: { 200: BookingRef },
        },
      ),
    },
    async (request) =>
      bookings.update(
        resellerOf(request),
        request.params.uuid,
        request.body,
        capabilitiesOf(request),
      ),
  );

  // POST .../cancel and DELETE are the same cancellation; a DELETE's body is optional.
  const cancellation = {
    params: OctoBookingParams,
    body: refTo(OctoBookingCancellationBody),
    response: { 200: BookingRef },
  };
  const cancel = async (request: FastifyRequest<{ Params: { uuid: string } }>) =>
    bookings.cancel(
      resellerOf(request),
      request.params.uuid,
      request.body as OctoBookingCancellationInput,
      capabilitiesOf(request),
    );
  app.post(
    '/bookings/:uuid/cancel',
    {
      schema: octoSchema(
        'cancelOctoBooking',
        'Cancel before the departure: seats back, the reason recorded; an ended booking is answered as it is (OCTo Bookings_BookingCancellation)',
        cancellation,
      ),
    },
    cancel,
  );
  app.delete(
    '/bookings/:uuid',
    {
      preValidation: async (request) => {
        request.body ??= {};
      },
      schema: octoSchema(
        'deleteOctoBooking',
        'Cancel, as POST .../cancel does (OCTo Bookings_BookingCancellation)',
        cancellation,
      ),
    },
    cancel,
  );

  app.get(
    '/bookings/:uuid',
    {
      schema: octoSchema(
        'getOctoBooking',
        'One booking of this reseller (OCTo Bookings_GetBooking)',
        {
          params: OctoBookingParams,
          response: { 200: BookingRef },
        },
      ),
    },
    async (request) =>
      bookings.get(resellerOf(request), request.params.uuid, capabilitiesOf(request)),
  );

  app.get(
    '/bookings',
    {
      schema: octoSchema(
        'listOctoBookings',
        'This reseller’s bookings by resellerReference, supplierReference, localDate, or localDateStart and localDateEnd (at most 500) (OCTo Bookings_GetBookings)',
        { querystring: OctoGetBookingsQuery, response: { 200: refTo(OctoBookings) } },
      ),
    },
    async (request) => bookings.list(resellerOf(request), request.query, capabilitiesOf(request)),
  );
};
