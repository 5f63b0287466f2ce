/**
 * The SQL every repository method sends, checked in (as immich does): each method runs once
 * against the query recorder (src/db/query-recorder.ts), which compiles exactly as the
 * PostgreSQL dialect does and runs nothing, and its statements are compared with
 * test/sql/__snapshots__/<repository>.sql. A change in generated SQL therefore shows in
 * review as a change of that file (`npx vitest run test/sql -u` rewrites them; CI never does).
 */
import { describe, expect, it } from 'vitest';
import { createQueryRecorder } from '../../src/db/query-recorder.js';
import * as outboxModule from '../../src/mail/outbox.repository.js';
import * as deliveriesModule from '../../src/modules/hooks/deliveries.repository.js';
import * as deliveryClaimsModule from '../../src/modules/hooks/delivery-claims.repository.js';
import * as fanOutModule from '../../src/modules/hooks/fan-out.repository.js';
import * as webhookRetentionModule from '../../src/modules/hooks/webhook-retention.repository.js';
import * as hooksModule from '../../src/modules/hooks/hooks.repository.js';
import * as resellerHooksModule from '../../src/modules/hooks/reseller-hooks.repository.js';
import { publishableKeyList } from '../../src/modules/checkout/publishable-keys.list.js';
import * as publishableKeysModule from '../../src/modules/checkout/publishable-keys.repository.js';
import { deliveryList, hookList } from '../../src/modules/hooks/hooks.list.js';
import * as domainEventsModule from '../../src/outbox/domain-events.repository.js';
import * as delegatesModule from '../../src/modules/delegates/delegates.repository.js';
import * as eventsModule from '../../src/modules/events/events.repository.js';
import * as eventSeatsModule from '../../src/modules/events/event-seats.repository.js';
import * as eventLocalTimesModule from '../../src/modules/events/event-local-times.repository.js';
import * as eventGuidesModule from '../../src/modules/events/event-guides.repository.js';
import * as experiencesModule from '../../src/modules/experiences/experiences.repository.js';
import * as demographicsModule from '../../src/modules/experiences/demographics.repository.js';
import { demographicList } from '../../src/modules/experiences/demographics.list.js';
import * as guidesModule from '../../src/modules/guides/guides.repository.js';
import * as guideCandidatesModule from '../../src/modules/guides/guide-candidates.repository.js';
import * as idempotencyModule from '../../src/modules/idempotency/idempotency.repository.js';
import * as ordersModule from '../../src/modules/orders/orders.repository.js';
import * as guestsModule from '../../src/modules/orders/guests.repository.js';
import * as checkinsModule from '../../src/modules/checkins/checkins.repository.js';
import { checkinList } from '../../src/modules/checkins/checkins.list.js';
import * as resourcesModule from '../../src/modules/resources/resources.repository.js';
import * as resourceSeatsModule from '../../src/modules/resources/resource-seats.repository.js';
import { resourceList } from '../../src/modules/resources/resources.list.js';
import * as departuresModule from '../../src/modules/events/departures.repository.js';
import * as eventWindowsModule from '../../src/modules/events/event-windows.repository.js';
import * as resellerBookingsModule from '../../src/modules/orders/reseller-bookings.repository.js';
import * as resellersModule from '../../src/modules/resellers/resellers.repository.js';
import { affiliateList } from '../../src/modules/resellers/resellers.list.js';
import * as usersModule from '../../src/modules/users/users.repository.js';
import { compile } from '../../src/query/compile.js';
import { parse } from '../../src/query/parse.js';
import { plan } from '../../src/query/plan.js';
import type { ResourceSpec } from '../../src/query/types.js';
import type { ListSource } from '../../src/query/run.js';
import type { Db } from '../../src/db/database.js';
import { delegateList } from '../../src/modules/delegates/delegates.list.js';
import { eventList } from '../../src/modules/events/events.list.js';
import { experienceList } from '../../src/modules/experiences/experiences.list.js';
import { guideList } from '../../src/modules/guides/guides.list.js';
import { sellerList } from '../../src/modules/users/sellers.list.js';
import { orderList } from '../../src/modules/orders/orders.list.js';
import { notCalled, repositoryMethods, tracked } from './tracked.js';

// The repositories, noting which methods the calls below take (tracked.ts).
const {
  enqueue,
  queue,
  outboxRepository,
  queueInvitation,
  sealedInvitationTokens,
  sentToOthersLastHour,
  sellerConfirmationsLastDay,
  sentToRecipientLastDay,
  invitationsLastHour,
  settleConfirmation,
  readdressConfirmation,
  writeSealedInvitationToken,
} = tracked(outboxModule);
const { deliveriesRepository } = tracked(deliveriesModule);
const { claimDue, everyHooksDue, hooksDue } = tracked(deliveryClaimsModule);
const { fanOut, insertDeliveries } = tracked(fanOutModule);
const { webhookRetentionRepository } = tracked(webhookRetentionModule);
const { hooksRepository } = tracked(hooksModule);
const { resellerHooksRepository } = tracked(resellerHooksModule);
const { publishableKeysRepository } = tracked(publishableKeysModule);
const { domainEventsRepository } = tracked(domainEventsModule);
const { delegatesRepository } = tracked(delegatesModule);
const { eventsRepository, eventsWithExperience } = tracked(eventsModule);
const { eventSeatsRepository } = tracked(eventSeatsModule);
const { eventLocalTimesRepository } = tracked(eventLocalTimesModule);
const { eventGuidesRepository } = tracked(eventGuidesModule);
const { experiencesRepository } = tracked(experiencesModule);
const { departuresRepository } = tracked(departuresModule);
const { eventWindowsRepository } = tracked(eventWindowsModule);
const { resellerBookingsRepository } = tracked(resellerBookingsModule);
const { resellersRepository } = tracked(resellersModule);
const { demographicsRepository } = tracked(demographicsModule);
const { guidesRepository } = tracked(guidesModule);
const { guideCandidatesRepository } = tracked(guideCandidatesModule);
const { idempotencyRepository } = tracked(idempotencyModule);
const { ordersRepository } = tracked(ordersModule);
const { guestsRepository } = tracked(guestsModule);
const { checkinsRepository } = tracked(checkinsModule);
const { resourcesRepository } = tracked(resourcesModule);
const { resourceSeatsRepository } = tracked(resourceSeatsModule);
const { usersRepository } = tracked(usersModule);

const recorder = createQueryRecorder();
const A = 'a'.repeat(24);
const B = 'b'.repeat(24);
const AT = new Date('2030-06-01T09:00:00Z');
const LATER = new Date('2030-06-01T11:00:00Z');
/** A resealed value as `cli rotate-secret` writes it back: with the value it replaces. */
const resealed = () => Object.assign(Buffer.alloc(1), { was: Buffer.alloc(1) });
const NEW_EVENT = {
  id: A,
  experience_id: B,
  seller_id: B,
  starts_at: AT,
  ends_at: LATER,
  max: 10,
  local_zone: 'UTC',
  local_start: '2030-06-01T09:00:00Z',
  local_end: '2030-06-01T11:00:00Z',
};
const ITEM = {
  id: B,
  order_id: A,
  seller_id: B,
  customer_id: null,
  experience_id: A,
  event_id: A,
  name: 'N',
  arrival: '2030-06-01',
  arrival_time: 900,
  arrival_datetime: AT,
  timezone: 'UTC',
  quantity: 2,
  price: 10,
  amount: 20,
  status: 200,
  ticket_code: 'f'.repeat(32),
  demographics: [],
  position: 0,
};

/** A list source's page and count queries for one representative request. */
function listCalls(
  spec: ResourceSpec,
  source: (db: Db) => ListSource<unknown>,
  query: Record<string, string>,
  scopeField = 'seller',
): Record<string, (db: Db) => Promise<unknown>> {
  const compiled = compile(spec, plan(parse(query), spec), {
    anyOf: [{ field: scopeField, in: [A] }],
  });
  return {
    'listSource.rows': (db) => source(db).rows(compiled),
    'listSource.count': (db) => source(db).count(compiled.where),
  };
}

const repositories: Record<string, Record<string, (db: Db) => Promise<unknown>>> = {
  users: {
    insert: (db) =>
      usersRepository(db).insert({
        id: A,
        name: 'N',
        email: 'e@x.io',
        password_hash: 'h',
        roles: ['ROLE_SELLER'],
        api_key_digest: Buffer.alloc(1),
        api_key_ciphertext: Buffer.alloc(1),
        api_version: '2017-01-01',
      }),
    findById: (db) => usersRepository(db).findById(A),
    findByEmail: (db) => usersRepository(db).findByEmail('E@x.io'),
    findCallerByApiKeyDigest: (db) => usersRepository(db).findCallerByApiKeyDigest(Buffer.alloc(1)),
    findCallerByEmail: (db) => usersRepository(db).findCallerByEmail('E@x.io'),
    notify: (db) => usersRepository(db).notify('booking_callers', A),
    replaceApiKey: (db) =>
      usersRepository(db).replaceApiKey(A, Buffer.alloc(1), Buffer.alloc(1), Buffer.alloc(1)),
    setPassword: (db) => usersRepository(db).setPassword(A, 'h'),
    findSellers: (db) => usersRepository(db).findSellers([A, B]),
    ...listCalls(
      sellerList,
      (db) => usersRepository(db).sellersListSource(),
      { 'name[startsWith]': 'al' },
      'id',
    ),
    updateProfile: (db) =>
      usersRepository(db).updateProfile(A, { name: 'N', email: 'e@example.com' }),
    lockMetadata: (db) => usersRepository(db).lockMetadata(A),
    sealedKeys: (db) => usersRepository(db).sealedKeys(A, 500),
    setSealedKey: (db) => usersRepository(db).setSealedKey(A, resealed()),
    writeMetadata: (db) => usersRepository(db).writeMetadata(A, { k: 1 }),
  },
  delegates: {
    lockedRoles: (db) => delegatesRepository(db).lockedRoles(B, A),
    upsert: (db) =>
      delegatesRepository(db).upsert({
        id: A,
        seller_id: B,
        user_id: null,
        email: 'a@example.com',
        roles: ['ROLE_GUIDE'],
      }),
    issueToken: (db) => delegatesRepository(db).issueToken(A, Buffer.alloc(32), 604_800_000),
    lockPendingInvitation: (db) => delegatesRepository(db).lockPendingInvitation(B, A),
    accept: (db) => delegatesRepository(db).accept(B, A, A),
    pendingInvitation: (db) => delegatesRepository(db).pendingInvitation(A),
    find: (db) => delegatesRepository(db).find(B, A),
    findByUser: (db) => delegatesRepository(db).findByUser(B, A),
    remove: (db) => delegatesRepository(db).remove(B, A),
    ...listCalls(delegateList, (db) => delegatesRepository(db).listSource(), { limit: '5' }),
  },
  experiences: {
    insert: (db) =>
      experiencesRepository(db).insert({
        id: A,
        seller_id: B,
        name: 'N',
        price: 10,
        price_type: 'person',
        currency: 'USD',
        duration: 60,
        order_min: null,
        order_max: null,
        outing_max: 10,
        schedules: '[]',
        guide: null,
      }),
    findById: (db) => experiencesRepository(db).findById(A),
    lock: (db) => experiencesRepository(db).lock(A),
    findMany: (db) => experiencesRepository(db).findMany([A, B]),
    findManyOfOne: (db) => experiencesRepository(db).findMany([A]),
    visibleOfSeller: (db) => experiencesRepository(db).visibleOfSeller(B),
    update: (db) => experiencesRepository(db).update(A, { name: 'N' }),
    createGuidePreferences: (db) =>
      experiencesRepository(db).createGuidePreferences(A, { required: 1 }),
    updateGuidePreferences: (db) =>
      experiencesRepository(db).updateGuidePreferences(A, { required: 2 }),
    remove: (db) => experiencesRepository(db).remove(A),
    usesResource: (db) => experiencesRepository(db).usesResource(A),
    ...listCalls(experienceList, (db) => experiencesRepository(db).listSource(), {
      'name[contains]': 'kayak',
    }),
  },
  demographics: listCalls(demographicList, (db) => demographicsRepository(db).listSource(), {
    'label[startsWith]': 'ad',
  }),
  events: {
    withExperience: (db) => eventsWithExperience(db).execute(),
    findById: (db) => eventsRepository(db).findById(A),
    findMany: (db) => eventsRepository(db).findMany([A, B]),
    findAt: (db) => eventsRepository(db).findAt(A, AT),
    seatsAhead: (db) => eventsRepository(db).seatsAhead(A),
    upsert: (db) => eventsRepository(db).upsert(NEW_EVENT, true),
    takeSeatsAt: (db) => eventSeatsRepository(db).takeSeatsAt(NEW_EVENT, 2),
    findOrCreate: (db) => eventsRepository(db).findOrCreate(NEW_EVENT),
    reserve: (db) => eventSeatsRepository(db).reserve(A, 2),
    release: (db) => eventSeatsRepository(db).release(A, 2),
    overlappingWithGuide: (db) =>
      eventGuidesRepository(db).overlappingWithGuide(B, { id: A, starts_at: AT, ends_at: LATER }),
    addGuide: (db) => eventGuidesRepository(db).addGuide(A, B),
    setGuideStatus: (db) => eventGuidesRepository(db).setGuideStatus(A, B, 'declined'),
    removeGuide: (db) => eventGuidesRepository(db).removeGuide(A, B),
    lockedEvent: (db) => eventGuidesRepository(db).lockedEvent(A),
    lockFutureWithGuide: (db) => eventGuidesRepository(db).lockFutureWithGuide(B, AT, 200),
    removeGuideFromEvents: (db) => eventGuidesRepository(db).removeGuideFromEvents([A], B),
    guidesOf: (db) => eventGuidesRepository(db).guidesOf([A, B]),
    withGuideProfiles: (db) => eventGuidesRepository(db).withGuideProfiles(A),
    seatsLeft: (db) => eventSeatsRepository(db).seatsLeft(A),
    forAvailability: (db) => eventsRepository(db).forAvailability([A], [AT, LATER], AT, LATER),
    startingAtMany: (db) => eventsRepository(db).startingAtMany([A, B], [AT, LATER]),
    lock: (db) => eventsRepository(db).lock(A),
    change: (db) => eventsRepository(db).change(A, { max: 5, manual: false }),
    hasBookings: (db) => eventsRepository(db).hasBookings(A),
    delete: (db) => eventsRepository(db).delete(A),
    staleLocalTimes: (db) => eventLocalTimesRepository(db).stale(A, 10, [A, B]),
    writeLocalTimes: (db) =>
      eventLocalTimesRepository(db).write([
        {
          id: A,
          local_zone: 'UTC',
          local_start: '2030-06-01T09:00:00Z',
          local_end: '2030-06-01T11:00:00Z',
        },
      ]),
    ...listCalls(eventList, (db) => eventsRepository(db).listSource(), {
      'start[range]': '2030-06-01,2030-06-30',
    }),
    ...Object.fromEntries(
      Object.entries(
        listCalls(eventList, (db) => eventsRepository(db).jsonListSource(), {
          'start[range]': '2030-06-01,2030-06-30',
        }),
      ).map(([name, call]) => [`json ${name}`, call]),
    ),
  },
  guides: {
    insert: (db) =>
      guidesRepository(db).insert({ id: A, seller_id: B, name: 'N', schedules: '[]' }),
    insertUnlessLinked: (db) =>
      guidesRepository(db).insertUnlessLinked({
        id: A,
        seller_id: B,
        user_id: A,
        name: 'N',
        schedules: '[]',
      }),
    find: (db) => guidesRepository(db).find(B, A),
    lock: (db) => guidesRepository(db).lock(A),
    findMany: (db) => guidesRepository(db).findMany([A, B]),
    findByUser: (db) => guidesRepository(db).findByUser(B, A),
    idsLinkedTo: (db) => guidesRepository(db).idsLinkedTo(A, [B]),
    linkedToUsers: (db) => guidesRepository(db).linkedToUsers([A, B], { sellers: [B], own: [A] }),
    usersLinkedTo: (db) => guidesRepository(db).usersLinkedTo([A, B], { sellers: [B], own: [A] }),
    update: (db) => guidesRepository(db).update(A, { name: 'N' }),
    markDeleted: (db) => guidesRepository(db).markDeleted(A, AT),
    ...listCalls(guideList, (db) => guidesRepository(db).listSource(), {
      'name[startsWith]': 'an',
    }),
  },
  orders: {
    insert: (db) =>
      ordersRepository(db).insert({
        id: A,
        seller_id: B,
        customer_id: null,
        customer_name: 'N',
        customer_email: null,
        phone: null,
        source: null,
        status: 'confirmed',
        short_code: 'ABCDEFGH',
        arrival: '2030-06-01',
        amount: 20,
        currency: 'USD',
        payment_method: null,
        notes: [],
        adjustments: [],
        hold_expires_at: null,
        created_at: AT,
        updated_at: AT,
      }),
    insertItems: (db) => ordersRepository(db).insertItems([ITEM]),
    update: (db) =>
      ordersRepository(db).update({
        id: A,
        seller_id: B,
        customer_id: null,
        customer_name: 'N',
        customer_email: null,
        phone: '+1 555',
        source: 'office',
        status: 'confirmed',
        short_code: 'ABCDEFGH',
        arrival: '2030-06-01',
        amount: 20,
        currency: 'USD',
        payment_method: 'later',
        notes: [{ text: 'n' }],
        adjustments: [],
        hold_expires_at: AT,
        created_at: AT,
        updated_at: AT,
      }),
    updateItem: (db) => ordersRepository(db).updateItem({ ...ITEM, quantity: 3 }),
    holdsDue: (db) => ordersRepository(db).holdsDue(AT, 100),
    findWithItems: (db) => ordersRepository(db).findWithItems(A),
    findJson: (db) => ordersRepository(db).findJson(A),
    findById: (db) => ordersRepository(db).findById(A),
    lock: (db) => ordersRepository(db).lock(A),
    markCanceled: (db) => ordersRepository(db).markCanceled(A),
    touch: (db) => ordersRepository(db).touch(A, AT),
    itemsOf: (db) => ordersRepository(db).itemsOf([A, B]),
    hasCustomerAtSeller: (db) => ordersRepository(db).hasCustomerAtSeller(A, B),
    ...Object.fromEntries(
      Object.entries(
        listCalls(orderList, (db) => ordersRepository(db).jsonListSource(), {
          'items.arrival[range]': '2030-06-01,2030-06-03',
        }),
      ).map(([name, call]) => [`json ${name}`, call]),
    ),
    ...Object.fromEntries(
      Object.entries(
        listCalls(orderList, (db) => ordersRepository(db).jsonListSource('Zoë 50%'), {
          sort: '-createdAt',
        }),
      ).map(([name, call]) => [`json search ${name}`, call]),
    ),
  },
  guests: {
    insert: (db) =>
      guestsRepository(db).insert([
        {
          id: A,
          order_id: A,
          item_id: B,
          seller_id: B,
          event_id: A,
          demographic_id: null,
          ticket_code: 'e'.repeat(32),
          status: 'pending',
          checked_in_at: null,
          checked_in_by: null,
          position: 0,
          created_at: AT,
          canceled_at: null,
        },
      ]),
    liveOf: (db) => guestsRepository(db).liveOf(A),
    allOf: (db) => guestsRepository(db).allOf([A, B]),
    findByTicketCode: (db) => guestsRepository(db).findByTicketCode('e'.repeat(32)),
    findCode: (db) => guestsRepository(db).findCode('K7qm2xpa', [A, B]),
    'findCode all': (db) => guestsRepository(db).findCode('K7qm2xpa', 'all'),
    atEvent: (db) => guestsRepository(db).atEvent(A),
    atEventAfter: (db) =>
      guestsRepository(db).atEvent(A, {
        now: AT,
        after: { guest: B },
        limit: 10,
        notesChars: 1000,
      }),
    atEventAfterKey: (db) =>
      guestsRepository(db).atEvent(A, {
        now: AT,
        after: { key: { customerName: 'Bob', orderId: A, itemPosition: 0, position: 1, id: B } },
        limit: 10,
        notesChars: 1000,
      }),
    cancel: (db) => guestsRepository(db).cancel([A, B], AT),
    cancelOfOrder: (db) => guestsRepository(db).cancelOfOrder(A, AT),
    moveTo: (db) => guestsRepository(db).moveTo(B, [A]),
    setStatus: (db) => guestsRepository(db).setStatus([A], 'arrived', AT, B),
  },
  resources: {
    insert: (db) =>
      resourcesRepository(db).insert({ id: A, seller_id: B, name: 'Boat', capacity: 12 }),
    findById: (db) => resourcesRepository(db).findById(A),
    findMany: (db) => resourcesRepository(db).findMany([A, B]),
    lock: (db) => resourcesRepository(db).lock([A, B]),
    update: (db) => resourcesRepository(db).update(A, { capacity: 14 }),
    remove: (db) => resourcesRepository(db).remove(A),
    ...listCalls(resourceList, (db) => resourcesRepository(db).listSource(), { limit: '5' }),
  },
  resourceSeats: {
    loads: (db) => resourceSeatsRepository(db).loads([A, B], AT, LATER),
    hold: (db) =>
      resourceSeatsRepository(db).hold([
        {
          resource_id: A,
          event_id: B,
          starts_at: AT,
          ends_at: LATER,
          seats_per_guest: 1,
          seats: 3,
        },
      ]),
    settle: (db) => resourceSeatsRepository(db).settle([{ eventId: B, reserved: 2 }]),
    forget: (db) => resourceSeatsRepository(db).forget(A),
    releaseUnused: async (db) => {
      await resourceSeatsRepository(db).releaseUnused(B, [A]);
      await resourceSeatsRepository(db).releaseUnused(B, []);
    },
    'loads for takers': (db) =>
      resourceSeatsRepository(db).loads([A], AT, LATER, [A, B], [{ start: AT, end: LATER }]),
    windowsOf: (db) => resourceSeatsRepository(db).windowsOf(A),
    lockDepartures: (db) => resourceSeatsRepository(db).lockDepartures(A),
    departuresAhead: (db) => resourceSeatsRepository(db).departuresAhead(A, AT),
  },
  checkins: {
    insert: (db) =>
      checkinsRepository(db).insert([
        {
          id: A,
          seller_id: B,
          guest_id: A,
          order_id: A,
          event_id: B,
          source: 'scan',
          created_at: AT,
          created_by: B,
          undone_at: null,
          undone_by: null,
        },
      ]),
    findById: (db) => checkinsRepository(db).findById(A),
    liveOf: (db) => checkinsRepository(db).liveOf([A, B]),
    undo: (db) => checkinsRepository(db).undo([A], AT, B),
    ...listCalls(checkinList, (db) => checkinsRepository(db).listSource(), {
      'undoneAt[exists]': 'false',
    }),
  },
  idempotency: {
    claim: (db) => idempotencyRepository(db).claim(A, 'key', 'fp'),
    find: (db) => idempotencyRepository(db).find(A, 'key'),
    takeOver: (db) => idempotencyRepository(db).takeOver(A, 'key', 60_000),
    complete: (db) => idempotencyRepository(db).complete(A, 'key', AT, 201, { ok: true }),
    forget: (db) => idempotencyRepository(db).forget(A, 'key', AT),
    expire: (db) => idempotencyRepository(db).expire(A, 'key', 86_400_000),
    prune: (db) => idempotencyRepository(db).prune(86_400_000, 1000),
  },
  outbox: {
    pendingStats: (db) => outboxRepository(db).pendingStats(),
    claimDue: (db) => outboxRepository(db).claimDue(10, 30_000),
    markSent: (db) => outboxRepository(db).markSent(A),
    markFailed: (db) => outboxRepository(db).markFailed({ id: A, attempts: 1 }, 'e', 5000),
    markFailedGiveUp: (db) =>
      outboxRepository(db).markFailed({ id: A, attempts: 1 }, 'e', 'give-up'),
    putBack: (db) => outboxRepository(db).putBack({ id: A, attempts: 1 }, 'e', 5000),
    requeueFailed: (db) => outboxRepository(db).requeueFailed([A]),
    markSkipped: (db) => outboxRepository(db).markSkipped(A),
    find: (db) => outboxRepository(db).find(A, 'order_confirmation'),
    listUnsent: (db) => outboxRepository(db).listUnsent(),
    prune: (db) => outboxRepository(db).prune(30 * 86_400_000, 1000),
    enqueue: (db) => enqueue(db, { orderId: A, recipient: 'c@example.com', senderId: B }),
    queue: (db) => queue(db, { orderId: A, recipient: 'c@example.com', senderId: B }),
    settleConfirmation: (db) => settleConfirmation(db, A),
    readdressConfirmation: (db) => readdressConfirmation(db, A, 'b@example.com', B),
    sentToOthersLastHour: (db) => sentToOthersLastHour(db, A, 'a@example.com'),
    sellerConfirmationsLastDay: (db) => sellerConfirmationsLastDay(db, A, 'b@example.com'),
    sentToRecipientLastDay: (db) => sentToRecipientLastDay(db, A, 'B@example.com'),
    invitationsLastHour: (db) => invitationsLastHour(db, A, B),
    queueInvitation: (db) =>
      queueInvitation(db, {
        id: A,
        delegateId: B,
        recipient: 'c@example.com',
        senderId: B,
        secret: Buffer.alloc(16),
      }),
    sealedInvitationTokens: (db) => sealedInvitationTokens(db, A, 500),
    writeSealedInvitationToken: (db) => writeSealedInvitationToken(db, A, Buffer.alloc(16)),
  },
  domainEvents: {
    insert: (db) =>
      domainEventsRepository(db).insert({
        id: A,
        name: 'order.create',
        sellerId: B,
        actorId: A,
        object: { object: 'order', id: A },
      }),
  },
  hooks: {
    insert: (db) =>
      hooksRepository(db).insert({
        id: A,
        owner_id: B,
        event_name: '*',
        url: 'https://example.com/hook',
        secret_ciphertext: Buffer.alloc(1),
        api_version: '2018-02-26',
        created_by: A,
      }),
    lockOwner: (db) => hooksRepository(db).lockOwner(B),
    sealedSecrets: (db) => hooksRepository(db).sealedSecrets(A, 500),
    setSealedSecret: (db) => hooksRepository(db).setSealedSecret(A, resealed()),
    countOf: (db) => hooksRepository(db).countOf(B),
    find: (db) => hooksRepository(db).find(B, A),
    findById: (db) => hooksRepository(db).findById(A),
    remove: (db) => hooksRepository(db).remove(B, A),
    setSecret: (db) => hooksRepository(db).setSecret(A, Buffer.alloc(1)),
    setStatus: (db) => hooksRepository(db).setStatus(A, 'disabled'),
    disableFailing: (db) => hooksRepository(db).disableFailing(A),
    disableMadeBy: (db) => hooksRepository(db).disableMadeBy(B, A),
    attemptsOf: (db) => hooksRepository(db).attemptsOf([A, B]),
    resend: (db) => hooksRepository(db).resend(B, A),
    ...listCalls(hookList, (db) => hooksRepository(db).listSource(), { limit: '5' }, 'user'),
  },
  webhookDeliveries: {
    fanOut: (db) => deliveriesRepository(db).fanOut(100),
    claimDue: (db) => deliveriesRepository(db).claimDue(10, 30_000),
    release: (db) => deliveriesRepository(db).release({ id: A, attempts: 1 }, 500),
    record: (db) =>
      deliveriesRepository(db).record(
        { id: A, attempts: 1, hook_id: B },
        { statusCode: 500, error: null, durationMs: 3, response: 'no' },
        5000,
      ),
    recordGiveUp: (db) =>
      deliveriesRepository(db).record(
        { id: A, attempts: 1, hook_id: B },
        { statusCode: 500, error: null, durationMs: 3, response: 'no' },
        'give-up',
        async () => undefined,
      ),
    recordDelivered: (db) =>
      deliveriesRepository(db).record(
        { id: A, attempts: 1, hook_id: B },
        { statusCode: 200, error: null, durationMs: 3, response: 'ok' },
        'delivered',
      ),
    pruneDeliveries: (db) => webhookRetentionRepository(db).pruneDeliveries(30 * 86_400_000, 1000),
    pruneEvents: (db) => webhookRetentionRepository(db).pruneEvents(30 * 86_400_000, 1000),
    ...listCalls(
      deliveryList,
      (db) => hooksRepository(db).deliveriesSource(),
      { limit: '5' },
      'hook',
    ),
  },
  publishableKeys: {
    insert: (db) =>
      publishableKeysRepository(db).insert({
        id: A,
        seller_id: B,
        key: 'pk_x',
        label: '',
        created_by: A,
      }),
    findLive: (db) => publishableKeysRepository(db).findLive('pk_x'),
    revoke: (db) => publishableKeysRepository(db).revoke(B, A, AT),
    revokeMadeBy: (db) => publishableKeysRepository(db).revokeMadeBy(B, A, AT),
    ...listCalls(
      publishableKeyList,
      (db) => publishableKeysRepository(db).listSource(),
      { limit: '5' },
      'seller',
    ),
  },
};

repositories.departures = {
  between: (db) => departuresRepository(db).between(A, AT, new Date('2031-06-01T00:00:00Z')),
  openedByHandBetween: (db) =>
    departuresRepository(db).openedByHandBetween([A], AT, new Date('2031-06-01T00:00:00Z'), 100),
};
repositories.eventWindows = {
  otherThanDuration: (db) => eventWindowsRepository(db).otherThanDuration([A, B], AT, LATER),
};
repositories.resellers = {
  insert: (db) =>
    resellersRepository(db).insert({
      id: A,
      seller_id: B,
      name: 'Klook',
      key_digest: Buffer.alloc(32),
      key_ciphertext: Buffer.alloc(1),
      commission_bps: 1250,
      created_by: A,
    }),
  findLiveByDigest: (db) => resellersRepository(db).findLiveByDigest(Buffer.alloc(32)),
  findById: (db) => resellersRepository(db).findById(A),
  revoke: (db) => resellersRepository(db).revoke(B, A, AT),
  revokeMadeBy: (db) => resellersRepository(db).revokeMadeBy(B, A, AT),
  sealedKeys: (db) => resellersRepository(db).sealedKeys(A, 500),
  setSealedKey: (db) => resellersRepository(db).setSealedKey(A, resealed()),
  ...listCalls(
    affiliateList,
    (db) => resellersRepository(db).listSource(),
    { limit: '5' },
    'seller',
  ),
};

repositories.resellerHooks = {
  insert: (db) =>
    resellerHooksRepository(db).insert({
      id: A,
      owner_id: B,
      reseller_id: A,
      event_name: 'booking_update',
      url: 'https://example.com/h',
      secret_ciphertext: Buffer.alloc(1),
    }),
  countOf: (db) => resellerHooksRepository(db).countOf(A),
  list: (db) => resellerHooksRepository(db).list(A),
  remove: (db) => resellerHooksRepository(db).remove(A, B),
  removeAll: (db) => resellerHooksRepository(db).removeAll(A),
  bookersOf: (db) => resellerHooksRepository(db).bookersOf([A, B]),
  visibleOf: (db) => resellerHooksRepository(db).visibleOf([A, B]),
  lockLiveCredential: (db) => resellerHooksRepository(db).lockLiveCredential(A),
  findOwn: (db) =>
    resellerHooksRepository(db).findOwn(A, 'booking_update', 'https://example.com/h'),
  reenable: (db) => resellerHooksRepository(db).reenable(A, Buffer.alloc(1)),
  liveOf: (db) => resellerHooksRepository(db).liveOf([A, B]),
};

// The fan-out's reads, and its deliveries written as array parameters (any number of rows,
// six parameters).
repositories.fanOut = {
  fanOut: (db) => fanOut(db, 200),
  insertDeliveries: (db) =>
    insertDeliveries(db, [
      { id: A, at: AT, hook_id: B, event_id: A, event_name: 'order.create', event_seq: 1 },
      { id: B, at: LATER, hook_id: A, event_id: B, event_name: 'event.update', event_seq: 2 },
    ]),
};

// The claim's two steps, around budgets and hosts at their caps, in turns counted on from
// the slots each budget holds (the dispatcher's plan).
repositories.deliveryClaims = {
  claimDue: (db) =>
    claimDue(db, 10, 30_000, {
      busy: { owners: [A], resellers: [B], hosts: ['h.example:443'] },
      held: { [`owner ${B}`]: 3 },
      perHook: 4,
      choose: () => [
        { id: A, hook: { url: 'https://h.example/', owner_id: B, reseller_id: null } },
      ],
    }),
  // The walk of every hook with pending deliveries, which a backlog of 1,000 due calls for.
  everyHooksDue: (db) =>
    everyHooksDue(db, 10, {
      busy: { owners: [A], resellers: [B], hosts: ['h.example:443'] },
      held: { [`owner ${B}`]: 3 },
      perHook: 4,
    }),
  // The hooks with due deliveries a dispatcher keeps a poll interval, and the walk over them.
  hooksDue: (db) => hooksDue(db),
  everyHooksDueOfHooks: (db) =>
    everyHooksDue(
      db,
      10,
      {
        busy: { owners: [A], resellers: [B], hosts: ['h.example:443'] },
        held: { [`owner ${B}`]: 3 },
        perHook: 4,
      },
      [A, B],
    ),
};

repositories.guideCandidates = {
  freeCandidates: (db) =>
    guideCandidatesRepository(db).freeCandidates(
      B,
      { id: A, starts_at: AT, ends_at: LATER },
      { after: A, exclude: [B], limit: 8 },
    ),
  lockFree: (db) => guideCandidatesRepository(db).lockFree([A, B]),
};

const UUID = '6c6b5d6e-3c1f-4d33-8d4a-0b7c0e1f2a3b';
const seat = { guest_id: A, order_id: B, uuid: UUID, reseller_reference: 'R', contact: null };
repositories.resellerBookings = {
  insert: (db) =>
    resellerBookingsRepository(db).insert({
      order_id: A,
      seller_id: B,
      booker_id: B,
      uuid: UUID,
      request_digest: Buffer.alloc(32),
      reseller_reference: 'R',
      contact: { fullName: 'N' },
      confirmed_at: null,
      ended_at: null,
      end_reason: null,
    }),
  insertSeats: (db) => resellerBookingsRepository(db).insertSeats([seat]),
  replaceSeats: (db) => resellerBookingsRepository(db).replaceSeats(B, [seat]),
  findByUuid: (db) => resellerBookingsRepository(db).findByUuid(B, UUID),
  find: (db) => resellerBookingsRepository(db).find(A),
  update: (db) => resellerBookingsRepository(db).update(A, { confirmed_at: AT, contact: null }),
  markExpired: (db) => resellerBookingsRepository(db).markExpired(A, AT),
  heldBy: (db) => resellerBookingsRepository(db).heldBy(B),
  lockLiveCredential: (db) => resellerBookingsRepository(db).lockLiveCredential(A),
  guestsOf: (db) => resellerBookingsRepository(db).guestsOf(A),
  orderIds: (db) => resellerBookingsRepository(db).orderIds(B, { resellerReference: 'R' }, 500),
  orderIdsByCode: (db) => resellerBookingsRepository(db).orderIds(B, { shortCode: 'ABC' }, 500),
  orderIdsByDates: (db) =>
    resellerBookingsRepository(db).orderIds(
      B,
      { arrival: { start: '2030-06-01', end: '2030-06-30' } },
      500,
    ),
};

describe('repository SQL', () => {
  it.each(Object.keys(repositories))('%s', async (name) => {
    const sections: string[] = [];
    for (const [method, call] of Object.entries(repositories[name]!)) {
      const queries = await recorder.record((db) => call(db));
      expect(queries.length, `${name}.${method} sent no SQL`).toBeGreaterThan(0);
      sections.push(`-- ${method}\n${queries.map((q) => `${q.sql};`).join('\n')}\n`);
    }
    await expect(sections.join('\n')).toMatchFileSnapshot(`__snapshots__/${name}.sql`);
  });

  it('runs every method of every repository', async () => {
    for (const calls of Object.values(repositories)) {
      for (const call of Object.values(calls)) await recorder.record((db) => call(db));
    }
    expect(notCalled(await repositoryMethods(recorder.db))).toEqual([]);
  });
});
