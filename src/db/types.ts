/**
 * Table types for Kysely. Column names are the SQL names (snake_case); repositories map
 * rows to API objects. Keep in step with src/db/migrations.
 */
import type { ColumnType, Generated } from 'kysely';

/** jsonb: read as an object, written as JSON text (pg would send arrays as Postgres arrays). */
export type JsonObject = ColumnType<Record<string, unknown>, string | undefined, string>;

export interface UsersTable {
  id: string;
  name: string;
  email: string;
  password_hash: string;
  roles: string[];
  api_key_digest: Buffer;
  api_key_ciphertext: Buffer;
  /** The API version pinned at creation: the default for requests without X-API-VERSION. */
  api_version: string;
  metadata: JsonObject;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface DB {
  users: UsersTable;
}
