import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { LATEST_VERSION } from '../../src/versions/index.js';
import type { ApiVersion, VersionChanges } from '../../src/versions/types.js';
import {
  as,
  createTestApp,
  expectProblem,
  pinApiVersion,
  signUp,
  testConfig,
  type TestApp,
} from '../helpers/app.js';
import { createTestDatabase } from '../helpers/database.js';

describe('X-API-VERSION with the registered versions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('echoes the latest version to anonymous callers, on success and on errors', async () => {
    for (const url of ['/healthz', '/nowhere', '/api/users/me']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.headers['x-api-version'], url).toBe(LATEST_VERSION);
    }
  });

  it('answers 400 for a value that is not a date, naming the header', async () => {
    for (const value of ['yesterday', '2018-02-30', '2018-2-1', '20180226', '']) {
      const response = await t.app.inject({
        method: 'GET',
        url: '/healthz',
        headers: { 'x-api-version': value },
      });
      const body = expectProblem(response, 400, 'invalid_api_version');
      expect(body.errors).toEqual([
        { in: 'header', name: 'X-API-VERSION', detail: expect.any(String) },
      ]);
      expect(response.headers['x-api-version']).toBe(LATEST_VERSION);
    }
  });
});

// A registry with two dated changes after the base, the second of which renames a field
// in responses: proves resolution, pinning and rewriting end to end over HTTP.
const versions: ApiVersion[] = [
  { date: '2017-01-01', title: 'Base', description: 'base' },
  // The modules' own changes name this date (single-item orders), so the registry needs it.
  { date: '2017-09-28', title: 'Multi-item', description: 'no change to users' },
  { date: '2018-02-15', title: 'Middle', description: 'no wire change' },
  {
    date: '2018-02-26',
    title: 'Renamed email',
    description: 'Before this version the user email was called emailAddress.',
  },
  // The modules' own changes name this date (event guides), so the registry needs it.
  { date: '2018-06-26', title: 'Later', description: 'no change to users' },
];
const renamedEmail: VersionChanges = {
  objects: [
    {
      version: '2018-02-26',
      object: 'user',
      down: (users) =>
        users.map(({ email, ...rest }) => ({ ...rest, emailAddress: email, rewritten: true })),
    },
  ],
};

describe('X-API-VERSION resolution and rewrites', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({}, { versions, versionChanges: [renamedEmail] });
  });
  afterAll(async () => t.close());

  const me = async (apiKey: string, version?: string) =>
    as(
      t.app,
      { apiKey },
      {
        method: 'GET',
        url: '/api/users/me',
        headers: version === undefined ? {} : { 'x-api-version': version },
      },
    );

  it('resolves a date to the newest version on or before it and echoes it', async () => {
    const ann = await signUp(t.app);
    const cases: [string, string][] = [
      ['2018-02-26', '2018-02-26'],
      ['2030-01-01', '2018-06-26'],
      ['2018-06-25', '2018-02-26'],
      ['2018-02-25', '2018-02-15'],
      ['2018-02-15', '2018-02-15'],
      ['2017-06-01', '2017-01-01'],
      ['2010-01-01', '2017-01-01'],
      ['v2018-02-26', '2018-02-26'],
    ];
    for (const [sent, resolved] of cases) {
      expect((await me(ann.apiKey, sent)).headers['x-api-version'], sent).toBe(resolved);
    }
  });

  it('applies the older shape only to callers before the change', async () => {
    const ann = await signUp(t.app);
    const latest = (await me(ann.apiKey, '2018-02-26')).json();
    expect(latest).toHaveProperty('email');
    expect(latest).not.toHaveProperty('emailAddress');
    const older = (await me(ann.apiKey, '2018-02-01')).json();
    expect(older).not.toHaveProperty('email');
    expect(older.emailAddress).toBe(latest.email);
  });

  it('pins new accounts to the latest version and follows the pin without a header', async () => {
    const ann = await signUp(t.app);
    expect((await me(ann.apiKey)).headers['x-api-version']).toBe('2018-06-26');
    await pinApiVersion(t, ann, '2018-01-10');
    const pinned = await me(ann.apiKey);
    expect(pinned.headers['x-api-version']).toBe('2017-09-28');
    expect(pinned.json()).toHaveProperty('emailAddress');
    // The header still overrides the pin.
    expect((await me(ann.apiKey, '2018-03-01')).json()).toHaveProperty('email');
  });

  it('leaves error bodies alone', async () => {
    const response = await me('wrong', '2018-01-01');
    expect(expectProblem(response, 401, 'invalid_credentials')).not.toHaveProperty('rewritten');
    expect(response.headers['x-api-version']).toBe('2017-09-28');
  });
});

describe('request rewrites at start', () => {
  const rewrite = (method: string, url: string): VersionChanges => ({
    requests: [{ version: '2018-02-26', method, url, rewrite: () => undefined }],
  });

  it('refuses to start when a rewrite names no registered route', async () => {
    const database = await createTestDatabase();
    try {
      const app = await buildApp(testConfig(), {
        database,
        logStream: new PassThrough(),
        versionChanges: [rewrite('GET', '/api/users/:id'), rewrite('POST', '/api/user/me')],
      });
      await expect(app.ready()).rejects.toThrow(
        'Request rewrites name no registered route: 2018-02-26 POST /api/user/me',
      );
      await app.close();
    } finally {
      await database.close();
    }
  });
});
