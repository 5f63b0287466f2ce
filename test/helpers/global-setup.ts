/**
 * Once per test run: build a migrated database template, so each test file starts from
 * a copy (about 0.5 s for PGlite, a fast CREATE DATABASE ... TEMPLATE on PostgreSQL)
 * instead of migrating from nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import pg from 'pg';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresTemplate: string;
  }
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = '/' + database;
  return u.toString();
}

export default async function setup(project: TestProject) {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const prefix = `booking_test_${process.pid}_${Date.now().toString(36)}`;
    const template = `${prefix}_tpl`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${template}`);
    const database = await openDatabase({
      kind: 'postgres',
      url: withDatabase(serverUrl, template),
      poolSize: 1,
    });
    await migrateToLatest(database.db);
    await database.close();
    // No connection is held for the run: the failover drill (test/cluster/) restarts the
    // server, and a client held across that would end this process with its 'error' event.
    await admin.end();
    project.provide('postgresTemplate', template);
    project.provide('pgliteTemplate', '');
    return async () => {
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      const { rows } = await admin.query<{ datname: string }>(
        'select datname from pg_database where datname like $1',
        [`${prefix}%`],
      );
      // Templates last: copies must be gone before their template can be dropped.
      for (const { datname } of rows.sort((a) => (a.datname === template ? 1 : -1))) {
        await admin.query(`drop database if exists ${datname} with (force)`);
      }
      await admin.end();
    };
  }

  const database = await openDatabase({ kind: 'pglite' });
  await migrateToLatest(database.db);
  const dump = await database.dumpDataDir!();
  await database.close();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'booking-test-'));
  const file = path.join(dir, 'template.tar');
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteTemplate', file);
  project.provide('postgresTemplate', '');
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
