/**
 * Seeded accounts: sellers (companies with a time zone, a currency and one to five guides)
 * and registered customers. Each gets a real API key, stored as the service stores keys
 * (digest + AES-GCM under the server secret), so an admin can read any seeded account's
 * key through the API; all seeded accounts share one password, printed by the command.
 *
 * Rows are generated in SQL into temporary tables (s_sellers, s_customers) that the later
 * steps join; only the key material is made in JavaScript.
 */
import { apiKeyDigest, generateApiKey, type ApiKeyCipher } from '../../security/api-keys.js';
import type { SeedContext } from './context.js';
import { emailDomain, emailLocalPart, nameColumns } from './people.js';
import { idSql, pick, rnd, TAG, textArray } from './sql.js';
import { S } from './streams.js';
import { CURRENCIES, PLACES, TIMEZONES } from './words.js';

const KINDS = textArray([
  'Tours',
  'Adventures',
  'Experiences',
  'Excursions',
  'Outdoors',
  'Travel Co.',
  'Expeditions',
  'Escapes',
  'Discoveries',
  'Walks',
]);

/** Users are inserted in batches of this many (each batch is one statement). */
const USER_BATCH = 5000;

export interface AccountSettings {
  cipher: ApiKeyCipher;
  passwordHash: string;
  apiVersion: string;
}

export async function createSellers(ctx: SeedContext, settings: AccountSettings): Promise<void> {
  const { seed, sellers } = ctx.options;
  const r = (stream: number) => rnd(seed, 'n', stream);
  await ctx.run(`
    create temp table s_sellers as
    select n, id, created_at, name, timezone, currency, guide_count,
           'hello@' || lower(regexp_replace(name, '[^A-Za-z0-9]+', '-', 'g')) || '-' || n
             || '.example.com' as email,
           lower(regexp_replace(name, '[^A-Za-z0-9]+', '-', 'g')) || '-' || n || '.example.com'
             as domain,
           (sum(guide_count) over (order by n) - guide_count)::int as guide_offset
    from (
      select n, ${idSql('created_at', TAG.seller, 'n')} as id, created_at,
             ${pick(textArray(PLACES), PLACES.length, r(S.sellerPlace))} || ' '
               || ${pick(KINDS, 10, r(S.sellerKind))} as name,
             ${pick(textArray(TIMEZONES), TIMEZONES.length, r(S.sellerZone))} as timezone,
             ${pick(textArray(CURRENCIES), CURRENCIES.length, r(S.sellerCurrency), 2.5)} as currency,
             1 + floor(power(${r(S.sellerGuides)}, 1.5) * 5)::int as guide_count
      from (select n, ${ctx.fromUtc} - interval '3 years' + n * interval '7 minutes' as created_at
            from generate_series(0, ${sellers - 1}) n) s
    ) s`);
  await ctx.run(`create index on s_sellers (n)`);
  await insertUsers(ctx, settings, 's_sellers', 'ROLE_SELLER');
}

export async function createCustomers(ctx: SeedContext, settings: AccountSettings): Promise<void> {
  const { seed, customers } = ctx.options;
  const r = (stream: number) => rnd(seed, 'n', stream);
  const start = `(${ctx.fromUtc} - interval '1 year')`;
  await ctx.run(`
    create temp table s_customers as
    select n, ${idSql('created_at', TAG.customer, 'n')} as id, created_at,
           first_name || ' ' || last_name as name,
           ${emailLocalPart('first_name', 'last_name')} || n || '@'
             || ${emailDomain(seed, 'n', S.customerDomain)} as email
    from (select n, ${start} + ${r(S.customerCreated)} * (${ctx.asOf} - ${start}) as created_at
          from generate_series(0, ${customers - 1}) n) s
    cross join lateral (select ${nameColumns(seed, 'n', { first: S.customerFirst, last: S.customerLast })}) p`);
  await ctx.run(`create index on s_customers (n)`);
  await insertUsers(ctx, settings, 's_customers', 'ROLE_DEVELOPER');
}

/** Copies a temporary table of accounts into users, with fresh API keys. */
async function insertUsers(
  ctx: SeedContext,
  { cipher, passwordHash, apiVersion }: AccountSettings,
  table: string,
  role: string,
): Promise<void> {
  const rows = await ctx.run<{ id: string }>(`select id from ${table} order by n`);
  for (let start = 0; start < rows.length; start += USER_BATCH) {
    const ids = rows.slice(start, start + USER_BATCH).map((row) => row.id);
    const keys = ids.map(generateApiKey);
    await ctx.run(
      `insert into users (id, name, email, password_hash, roles, api_key_digest,
                          api_key_ciphertext, api_version, created_at, updated_at)
       select t.id, t.name, t.email, $1, array[$2]::text[], k.digest, k.ciphertext, $3,
              t.created_at, t.created_at
       from unnest($4::text[], $5::bytea[], $6::bytea[]) as k (id, digest, ciphertext)
       join ${table} t on t.id = k.id
       order by t.n`,
      [
        passwordHash,
        role,
        apiVersion,
        ids,
        keys.map(apiKeyDigest),
        keys.map((key, i) => cipher.encrypt(key, ids[i]!)),
      ],
    );
  }
}
