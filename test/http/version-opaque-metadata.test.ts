/**
 * A user's metadata is free-form: whatever it holds, older versions' transforms leave it
 * alone. A value tagged like an API object (`{"object":"event"}`, an order, a problem) is
 * the user's data, not an event: reads on every version answer 200 with it unchanged, and a
 * `user.update` to a hook pinned to an older version is delivered with it intact. And a
 * payload that cannot be rendered (a transform that throws) is a failed attempt, retried on
 * the schedule and then given up, never a delivery handed back for ever.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUIDE_PROFILES } from '../../src/versions/index.js';
import type { VersionChanges } from '../../src/versions/types.js';
import { as, createTestApp, signUp, type Account, type TestApp } from '../helpers/app.js';
import { eventually } from '../helpers/eventually.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

const FAST = {
  BOOKING_ENV: 'sandbox',
  WEBHOOK_DISPATCH: 'true',
  WEBHOOK_POLL_MS: '25',
  WEBHOOK_TIMEOUT_MS: '400',
  WEBHOOK_RETRY_SCHEDULE_MS: '50,50',
};

/** Values an older version's transforms would take for events, orders and problems. */
const TAGGED = {
  'acme/app/event': { object: 'event' },
  'acme/app/declined': {
    object: 'event',
    guides: [{ status: 'declined', guide: { id: 'x' } }],
  },
  'acme/app/order': { object: 'order', items: [{ quantity: 3 }] },
  'acme/app/bad-order': { object: 'order', items: 'none' },
  'acme/app/problem': { type: 't', status: 1, code: 'c', guide: { id: 'a'.repeat(24) } },
  'acme/app/deep': { list: [{ object: 'event', guides: 'x' }] },
};

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => receiver.close());

const merge = (t: TestApp, user: Account, version: string, pairs: Record<string, unknown>) =>
  as(t.app, user, {
    method: 'POST',
    url: `/api/users/${user.id}/meta`,
    headers: { 'x-api-version': version },
    payload: pairs,
  });

async function createHook(t: TestApp, user: Account, path: string, apiVersion: string) {
  const hook = await as(t.app, user, {
    method: 'POST',
    url: `/api/users/${user.id}/hooks`,
    payload: { eventName: 'user.update', url: receiver.url(path), apiVersion },
  });
  expect(hook.statusCode, hook.body).toBe(201);
  return hook.json<{ id: string }>();
}

describe('metadata tagged like API objects', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(FAST);
  });
  afterAll(async () => t.close());

  it.each(['2017-01-01', '2018-01-01', '2018-03-01'])(
    'is stored and read back unchanged on %s',
    async (version) => {
      const user = await signUp(t.app);
      const merged = await merge(t, user, version, TAGGED);
      expect(merged.statusCode, merged.body).toBe(200);
      expect(merged.json()).toEqual(TAGGED);

      const read = await as(t.app, user, {
        method: 'GET',
        url: `/api/users/${user.id}?private=true`,
        headers: { 'x-api-version': version },
      });
      expect(read.statusCode, read.body).toBe(200);
      expect(read.json().metadata).toEqual(TAGGED);

      const removed = await as(t.app, user, {
        method: 'DELETE',
        url: `/api/users/${user.id}/meta/acme/app/deep`,
        headers: { 'x-api-version': version },
      });
      expect(removed.statusCode, removed.body).toBe(200);
      const { 'acme/app/deep': _, ...rest } = TAGGED;
      expect(removed.json()).toEqual(rest);
    },
  );

  it('reaches a user.update hook pinned to an older version intact', async () => {
    const user = await signUp(t.app);
    const path = `/opaque-${user.id}`;
    await createHook(t, user, path, '2018-01-01');
    expect((await merge(t, user, '2018-01-01', TAGGED)).statusCode).toBe(200);
    const [delivery] = (
      await receiver.waitFor((all) => all.some((r) => r.path === path), 5000)
    ).filter((r) => r.path === path);
    const body = delivery!.json as {
      eventName: string;
      data: { metadata: unknown };
      audit: { metadata: { old: unknown; new: unknown } };
    };
    expect(body.eventName).toBe('user.update');
    expect(body.data.metadata).toEqual(TAGGED);
    expect(body.audit.metadata).toEqual({ old: {}, new: TAGGED });
  });
});

describe('a payload that cannot be rendered in the hook version', () => {
  // A transform that throws on users (a bug in a transform, say).
  const throwing: VersionChanges = {
    objects: [
      {
        version: GUIDE_PROFILES,
        object: 'user',
        down: () => {
          throw new Error('cannot render users');
        },
      },
    ],
  };
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(FAST, { versionChanges: [throwing] });
  });
  afterAll(async () => t.close());

  it('counts as a failed attempt: retried on the schedule, then given up and the hook disabled', async () => {
    const user = await signUp(t.app);
    const path = `/unrenderable-${user.id}`;
    const hook = await createHook(t, user, path, '2018-01-01');
    expect((await merge(t, user, '2026-11-25', { 'acme/app/k': 1 })).statusCode).toBe(200);
    const hookUrl = `/api/users/${user.id}/hooks/${hook.id}`;
    await eventually(async () => {
      const read = await as(t.app, user, { method: 'GET', url: hookUrl });
      expect(read.json().status).toBe('disabled');
    }, 5000);
    const log = await as(t.app, user, { method: 'GET', url: `${hookUrl}/deliveries` });
    const [delivery] = log.json().data as {
      status: string;
      attempts: { statusCode: number | null; error: string | null }[];
    }[];
    expect(delivery!.status).toBe('failed');
    expect(delivery!.attempts).toHaveLength(3);
    for (const attempt of delivery!.attempts) {
      expect(attempt.statusCode).toBeNull();
      expect(attempt.error).toMatch(/not rendered.*cannot render users/);
    }
    expect(receiver.received.filter((r) => r.path === path)).toEqual([]);
  });
});
