/**
 * A database out of disk (SQLSTATE 53100) or memory (53200) answers 503 with Retry-After,
 * logged as a deferred request with its cause: it passes once room is made, like an outage,
 * and is not a bug (a 500). The failure is raised by a trigger on sign-up's insert, the way
 * the database raises it, on both backends.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectProblem, uniqueEmail, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

/** Makes every insert into users fail as the database does when short of `code`. */
async function failInserts(code: string, message: string): Promise<void> {
  await sql
    .raw(
      `create or replace function fail_users_insert() returns trigger language plpgsql as $$
       begin raise exception '${message}' using errcode = '${code}'; end $$;
       drop trigger if exists fail_users_insert on users;
       create trigger fail_users_insert before insert on users
         for each row execute function fail_users_insert();`,
    )
    .execute(t.database.db);
}

const signUp = () =>
  t.app.inject({
    method: 'POST',
    url: '/api/users',
    payload: { name: 'Full Disk', email: uniqueEmail('full'), password: 'correct horse battery' },
  });

describe('a database short of resources', () => {
  it.each([
    ['53100', 'could not extend file "base/5/16401_fsm": No space left on device'],
    ['53200', 'out of memory'],
  ])('answers %s with 503 and Retry-After, logged as deferred', async (code, message) => {
    await failInserts(code, message);
    try {
      const logged = t.logs.length;
      const response = await signUp();
      const body = expectProblem(response, 503, 'service_unavailable');
      expect(response.headers['retry-after']).toBeDefined();
      // The cause is the operator's, in the log; the client is told only to come back.
      expect(JSON.stringify(body)).not.toContain(message);
      const lines = t.logs.slice(logged).map((line) => JSON.parse(line) as Record<string, unknown>);
      const deferred = lines.find((line) => line.msg === 'request deferred');
      expect(deferred, JSON.stringify(lines)).toMatchObject({ level: 40, cause: message });
      expect(lines.some((line) => line.msg === 'request failed')).toBe(false);
    } finally {
      await sql`drop trigger if exists fail_users_insert on users`.execute(t.database.db);
    }
    // Once the database has room again, the same request succeeds.
    expect((await signUp()).statusCode).toBe(201);
  });
});
