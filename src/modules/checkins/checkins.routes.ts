/**
 * HTTP routes of the check-in desk: scans, undoing a check-in, Xola's order `modify`, and a
 * departure's manifest (JSON, CSV, or a printable page). Each handler is one service call;
 * the manifest's handler also picks the format it is rendered in.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requireCaller } from '../../http/auth.js';
import {
  IdParams,
  ListQuery,
  authenticated,
  errorResponses,
  listErrors,
  refTo,
} from '../../http/schemas.js';
import { describeList } from '../../query/describe.js';
import { Order } from '../orders/index.js';
import { checkinList } from './checkins.list.js';
import {
  Checkin,
  CheckinBody,
  CheckinList,
  CheckinResult,
  Manifest,
  ManifestQuery,
  ModifyOrderBody,
} from './checkins.schemas.js';
import type { CheckinsService } from './checkins.service.js';
import { MANIFEST_CSP, manifestCsv, manifestHtml } from './manifest.render.js';
import type { ManifestService } from './manifest.service.js';

const tags = ['checkins'];
const readErrors = errorResponses('authentication_required', 'invalid_credentials', 'not_found');

/** The format asked: `?format=` first, else `Accept: text/csv`, else JSON. */
function formatOf(format: string | undefined, accept: string | undefined): 'json' | 'csv' | 'html' {
  if (format === 'csv' || format === 'html' || format === 'json') return format;
  return /\btext\/csv\b/i.test(accept ?? '') ? 'csv' : 'json';
}

export const checkinsRoutes: FastifyPluginAsyncTypebox<{
  checkins: CheckinsService;
  manifests: ManifestService;
}> = async (app, { checkins, manifests }) => {
  app.post(
    '/checkins',
    {
      schema: {
        tags,
        operationId: 'checkIn',
        summary:
          "Check in the guests a scanned code names (a guest's or item's ticket, an order's short code)",
        description:
          "The seller, its seller-admin, reservation and check-in (ROLE_CHECKIN) delegates. A guest checks in once (409 already_checked_in says when and by whom); a canceled seat is 409 guest_canceled; a departure on another local day is 409 wrong_day unless `force: true`; another seller's code is 404, as an unknown one. Emits order.update.",
        security: authenticated,
        body: CheckinBody,
        response: {
          201: refTo(CheckinResult),
          ...readErrors,
          ...errorResponses(
            'validation_failed',
            'already_checked_in',
            'guest_canceled',
            'wrong_day',
            'ambiguous_code',
          ),
        },
      },
    },
    async (request, reply) => {
      const result = await checkins.scan(requireCaller(request), request.body);
      return reply.code(201).send(result);
    },
  );

  app.get(
    '/checkins',
    {
      schema: {
        tags,
        operationId: 'listCheckIns',
        summary: "The dock's trail: the check-ins of the sellers the caller checks guests in for",
        description: describeList(checkinList),
        security: authenticated,
        querystring: ListQuery,
        response: {
          200: refTo(CheckinList),
          ...listErrors,
          ...errorResponses('authentication_required'),
        },
      },
    },
    async (request) => checkins.list(requireCaller(request), request.query),
  );

  app.get(
    '/checkins/:id',
    {
      schema: {
        tags,
        operationId: 'getCheckIn',
        summary: 'A check-in (undone ones too)',
        security: authenticated,
        params: IdParams,
        response: { 200: refTo(Checkin), ...readErrors },
      },
    },
    async (request) => checkins.get(requireCaller(request), request.params.id),
  );

  app.delete(
    '/checkins/:id',
    {
      schema: {
        tags,
        operationId: 'undoCheckIn',
        summary: 'Undo a check-in: the guest is expected again; the check-in stays, undone',
        description: 'A check-in already undone is 404. Emits order.update.',
        security: authenticated,
        params: IdParams,
        response: { 200: refTo(Checkin), ...readErrors },
      },
    },
    async (request) => checkins.undo(requireCaller(request), request.params.id),
  );

  app.post(
    '/orders/:id/modify',
    {
      schema: {
        tags: ['orders', ...tags],
        operationId: 'modifyOrder',
        summary: "Xola's modify: set every live guest's status of the order",
        description:
          '`{"updates": {"guestStatus": "arrived"}}` checks every live guest in (a check-in each); `no_show` and `pending` set them so (undoing check-ins). The seller and its reservation staff (it answers the whole order); the order\'s customer is 403. Emits order.update when a status changed.',
        security: authenticated,
        params: IdParams,
        body: ModifyOrderBody,
        response: {
          200: refTo(Order),
          ...readErrors,
          ...errorResponses('validation_failed', 'forbidden', 'already_canceled'),
        },
      },
    },
    async (request) =>
      checkins.modify(requireCaller(request), request.params.id, request.body.updates.guestStatus),
  );

  app.get(
    '/events/:id/manifest',
    {
      schema: {
        tags,
        operationId: 'getManifest',
        summary: "A departure's manifest: its guides and live guests, with counts",
        description:
          'JSON; CSV (one row per guest) with `Accept: text/csv` or `?format=csv`; a printable HTML page with `?format=html`. Each order\'s notes are clipped to 1,000 characters; one response lists the guests that fit in about 2 MB (at most 2,000), the counts are of all, and `paging.next` (and a `Link: <…>; rel="next"` header in every format) names the rest. The seller, its seller-admin, reservation and check-in delegates; anyone else 404.',
        security: authenticated,
        params: IdParams,
        querystring: ManifestQuery,
        response: {
          200: {
            description: 'The manifest',
            content: {
              'application/json': { schema: refTo(Manifest) },
              'text/csv': { schema: Type.String({ description: 'RFC 4180, a header row' }) },
              'text/html': { schema: Type.String({ description: 'A printable page' }) },
            },
          },
          ...readErrors,
          // invalid_parameter: a startingAfter that is no cursor of this manifest.
          ...errorResponses('validation_failed', 'invalid_parameter'),
        },
      },
    },
    async (request, reply) => {
      const { format: asked, startingAfter } = request.query;
      const manifest = await manifests.manifest(requireCaller(request), request.params.id, {
        ...(startingAfter ? { startingAfter } : {}),
      });
      const format = formatOf(asked, request.headers.accept);
      // The next page in every format: CSV has no other place to say there is one.
      if (manifest.paging.next)
        reply.header(
          'link',
          `<${manifest.paging.next}${asked ? `&format=${asked}` : ''}>; rel="next"`,
        );
      if (format === 'json') return manifest;
      const name = `manifest-${manifest.date}-${manifest.event.id}`;
      if (format === 'csv')
        return reply
          .type('text/csv; charset=utf-8; header=present')
          .header('content-disposition', `attachment; filename="${name}.csv"`)
          .send(manifestCsv(manifest));
      return reply
        .type('text/html; charset=utf-8')
        .header('content-security-policy', MANIFEST_CSP)
        .header('cache-control', 'no-store')
        .send(manifestHtml(manifest));
    },
  );
};
