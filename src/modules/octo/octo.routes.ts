/**
 * OCTo's read routes under /octo (tag `OCTo`): supplier, capabilities, products,
 * availability and its calendar. Each handler is one service call; the scope
 * (octo-scope.ts) authenticates, renders errors as OCTo bodies and echoes the capabilities.
 * Each summary names the specification's operation (`Suppliers_get` ...).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { TSchema } from 'typebox';
import { refTo } from '../../http/schemas.js';
import { capabilitiesOffered } from './capabilities.js';
import {
  OctoAvailabilityCalendarBody,
  OctoAvailabilityCheckBody,
  OctoCapabilitiesHeader,
  OctoProductParams,
} from './octo.bodies.js';
import { OctoError } from './octo.errors.js';
import {
  OctoAvailabilityCalendar,
  OctoAvailabilities,
  OctoCapabilities,
  OctoProduct,
  OctoProducts,
  OctoSupplier,
} from './octo.schemas.js';
import type { OctoService } from './octo.service.js';
import { capabilitiesOf, resellerOf } from './octo-scope.js';

export const tags = ['OCTo'];
export const security = [{ bearer: [] }];
const ErrorRef = refTo(OctoError);
/**
 * Every OCTo error is 400; an unknown route 404, a limit 429, an outage 503, and a 500 we
 * never mean to send: all with OCTo's body.
 */
export const octoErrors = {
  400: ErrorRef,
  404: ErrorRef,
  429: ErrorRef,
  500: ErrorRef,
  503: ErrorRef,
};

export const octoSchema = <T extends Record<string, unknown>>(
  operationId: string,
  summary: string,
  schema: T & { response: Record<number, TSchema> },
) => ({
  tags,
  security,
  operationId,
  summary,
  headers: OctoCapabilitiesHeader,
  ...schema,
  response: { ...schema.response, ...octoErrors },
});

export const octoReadRoutes: FastifyPluginAsyncTypebox<{ octo: OctoService }> = async (
  app,
  { octo },
) => {
  app.get(
    '/supplier',
    {
      schema: octoSchema('getOctoSupplier', 'The supplier: the seller (OCTo Suppliers_get)', {
        response: { 200: refTo(OctoSupplier) },
      }),
    },
    async (request) =>
      octo.supplier(resellerOf(request), `${request.protocol}://${request.host}/octo`),
  );

  app.get(
    '/capabilities',
    {
      schema: octoSchema(
        'getOctoCapabilities',
        'The capabilities offered: octo/pricing, octo/webhooks (OCTo Capabilities_get)',
        { response: { 200: refTo(OctoCapabilities) } },
      ),
    },
    async (request) => {
      resellerOf(request);
      return capabilitiesOffered();
    },
  );

  app.get(
    '/products',
    {
      schema: octoSchema(
        'listOctoProducts',
        'The seller’s visible experiences as products (OCTo Products_GetProducts)',
        { response: { 200: refTo(OctoProducts) } },
      ),
    },
    async (request) => octo.products(resellerOf(request), capabilitiesOf(request)),
  );

  app.get(
    '/products/:id',
    {
      schema: octoSchema('getOctoProduct', 'One product (OCTo Products_GetProduct)', {
        params: OctoProductParams,
        response: { 200: refTo(OctoProduct) },
      }),
    },
    async (request) =>
      octo.product(resellerOf(request), request.params.id, capabilitiesOf(request)),
  );

  app.post(
    '/availability/calendar',
    {
      schema: octoSchema(
        'octoAvailabilityCalendar',
        'One object per local date of a product, its departures aggregated; at most 366 days (OCTo Availabilities_AvailabilityCalendar)',
        {
          body: refTo(OctoAvailabilityCalendarBody),
          response: { 200: refTo(OctoAvailabilityCalendar) },
        },
      ),
    },
    async (request) => octo.calendar(resellerOf(request), request.body, capabilitiesOf(request)),
  );

  app.post(
    '/availability',
    {
      schema: octoSchema(
        'octoAvailabilityCheck',
        'The departures of a product by localDate, localDateStart and localDateEnd, or availabilityIds (OCTo Availabilities_AvailabilityCheck)',
        {
          body: refTo(OctoAvailabilityCheckBody),
          response: { 200: refTo(OctoAvailabilities) },
        },
      ),
    },
    async (request) =>
      octo.availability(resellerOf(request), request.body, capabilitiesOf(request)),
  );
};
