import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problemCodes, problemSchemaId, type ProblemCode } from '../../src/http/problems.js';
import {
  as,
  createTestApp,
  expectProblem,
  signUp,
  uniqueEmail,
  type TestApp,
} from '../helpers/app.js';

interface Operation {
  operationId?: string;
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const userCount = async () =>
  Number(
    (
      await t.database.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('request ids', () => {
  it('generates one, echoes it and puts it in problem bodies', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/nowhere' });
    const id = response.headers['x-request-id'];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(expectProblem(response, 404, 'route_not_found').requestId).toBe(id);
  });

  it("keeps a client's sane X-Request-Id and replaces an unsafe one", async () => {
    const kept = await t.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'abc-123.4' },
    });
    expect(kept.headers['x-request-id']).toBe('abc-123.4');
    const replaced = await t.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'bad id\twith spaces' },
    });
    expect(replaced.headers['x-request-id']).not.toContain(' ');
  });
});

describe('bodies', () => {
  it('reads a body sent without Content-Type as JSON (over a real socket)', async () => {
    const before = await userCount();
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const body = JSON.stringify({ name: 'No Type', email: uniqueEmail(), password: 'long enough' });
    // node:http adds no Content-Type of its own, unlike fetch for string bodies.
    const status = await new Promise<number>((resolve, reject) => {
      const request = http.request(
        `${address}/api/users`,
        { method: 'POST', headers: { 'content-length': Buffer.byteLength(body) } },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on('error', reject);
      request.end(body);
    });
    expect(status).toBe(201);
    expect(await userCount()).toBe(before + 1);
  });

  it('accepts application/json with a charset and +json types', async () => {
    for (const type of ['application/json; charset=utf-8', 'application/vnd.booking+json']) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/users',
        headers: { 'content-type': type },
        payload: JSON.stringify({ name: 'Typed', email: uniqueEmail(), password: 'long enough' }),
      });
      expect(response.statusCode).toBe(201);
    }
  });

  it('answers 415 for a declared non-JSON type and creates nothing', async () => {
    const before = await userCount();
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/users',
        headers: { 'content-type': type },
        payload: JSON.stringify({ name: 'X', email: uniqueEmail(), password: 'long enough' }),
      });
      expectProblem(response, 415, 'unsupported_media_type');
    }
    expect(await userCount()).toBe(before);
  });

  it('answers 400 for malformed JSON', async () => {
    for (const payload of ['{"name": ', '{"a":1}}', 'nul']) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/users',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expectProblem(response, 400, 'invalid_json');
    }
  });

  it('answers 413 beyond 1 MiB and creates nothing', async () => {
    const before = await userCount();
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({
        name: 'x'.repeat(1_100_000),
        email: uniqueEmail(),
        password: 'long enough',
      }),
    });
    expectProblem(response, 413, 'payload_too_large');
    expect(await userCount()).toBe(before);
  });

  it('refuses prototype poisoning', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":"P","email":"p@example.com","password":"long enough","__proto__":{"x":1}}',
    });
    expect(response.statusCode).toBe(400);
  });
});

describe('health', () => {
  it('answers /healthz and /readyz', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({
      status: 'ok',
    });
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({
      status: 'ok',
    });
  });
});

describe('OpenAPI', () => {
  it('documents every route with its schemas and error responses', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(response.statusCode).toBe(200);
    const doc = response.json();
    expect(doc.openapi).toBe('3.1.0');
    const operations: [string, string, Record<string, unknown>][] = [];
    for (const [path, item] of Object.entries<Record<string, Record<string, unknown>>>(doc.paths)) {
      for (const [method, operation] of Object.entries(item))
        operations.push([path, method, operation]);
    }
    const expected = [
      'post /api/users',
      'get /api/users/me',
      'get /api/users/{id}',
      'get /api/users/{id}/apiKey',
      'post /api/users/{id}/apiKey',
      'post /api/users/{id}/meta',
      'delete /api/users/{id}/meta/{*}',
      'get /healthz',
      'get /readyz',
      'post /api/users/{id}/delegates',
      'get /api/users/{id}/delegates',
      'get /api/users/{id}/delegates/{delegateId}',
      'delete /api/users/{id}/delegates/{delegateId}',
      'get /api/experiences',
      'post /api/experiences',
      'get /api/experiences/{id}',
      'put /api/experiences/{id}',
      'delete /api/experiences/{id}',
      'get /api/experiences/{id}/availability',
      'post /api/experiences/{id}/guide',
      'put /api/experiences/{id}/guide',
      'get /api/events',
      'post /api/events',
      'get /api/events/{id}',
      'post /api/events/{id}/guides',
      'delete /api/events/{id}/guides/{guideId}',
      'get /api/orders',
      'post /api/orders',
      'get /api/orders/{id}',
      'post /api/orders/{id}/cancel',
      'get /api/sellers/{id}/guides',
      'post /api/sellers/{id}/guides',
      'get /api/sellers/{id}/guides/{guideId}',
      'put /api/sellers/{id}/guides/{guideId}',
      'delete /api/sellers/{id}/guides/{guideId}',
      'post /api/sellers/{id}/guides/{guideId}/schedules',
      'put /api/sellers/{id}/guides/{guideId}/schedules/{scheduleId}',
      'delete /api/sellers/{id}/guides/{guideId}/schedules/{scheduleId}',
    ];
    const listed = operations.map(([path, method]) => `${method} ${path}`);
    for (const route of expected) expect(listed).toContain(route);
    for (const [path, method, operation] of operations) {
      const responses = operation.responses as Record<string, unknown>;
      const codes = Object.keys(responses);
      expect(
        codes.some((c) => c.startsWith('2')),
        `${method} ${path} has a success response`,
      ).toBe(true);
      expect(codes, `${method} ${path} documents errors`).toContain('500');
      const url = path.replace('{*}', '*').replace(/\{(\w+)\}/g, ':$1');
      expect(
        t.app.hasRoute({ method: method.toUpperCase(), url }),
        `${method} ${path} exists`,
      ).toBe(true);
    }
    // Every error code has its own named problem schema, and error responses refer to them.
    for (const code of Object.keys(problemCodes) as ProblemCode[]) {
      const schema = doc.components.schemas[problemSchemaId(code)];
      expect(schema, code).toBeDefined();
      expect(schema.properties.code.enum ?? [schema.properties.code.const], code).toEqual([code]);
    }
    for (const [path, method, operation] of operations) {
      for (const [status, response] of Object.entries(
        operation.responses as Record<string, { content?: Record<string, { schema: object }> }>,
      )) {
        if (Number(status) < 400) continue;
        const schema = JSON.stringify(Object.values(response.content ?? {})[0]?.schema ?? {});
        // OCTo (/octo) answers with its own error body, OctoError.
        expect(schema, `${method} ${path} ${status}`).toMatch(
          path.startsWith('/octo/')
            ? /^\{"\$ref":"#\/components\/schemas\/OctoError"\}$/
            : /#\/components\/schemas\/\w+Problem/,
        );
      }
    }
  });

  it('names every operation and every success response, for generated clients', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const ids = new Set<string>();
    for (const [path, item] of Object.entries(doc.paths as Record<string, object>)) {
      for (const [method, operation] of Object.entries(item) as [string, Operation][]) {
        expect(operation.operationId, `${method} ${path} has an operationId`).toMatch(/^[a-z]\w+$/);
        expect(ids.has(operation.operationId!), `${operation.operationId} is unique`).toBe(false);
        ids.add(operation.operationId!);
        for (const [status, response] of Object.entries(operation.responses)) {
          if (!status.startsWith('2') || status === '204') continue;
          const schema = Object.values(response.content ?? {})[0]?.schema;
          expect(JSON.stringify(schema), `${method} ${path} ${status} is a named schema`).toMatch(
            /^\{"\$ref":"#\/components\/schemas\/\w+"\}$/,
          );
        }
      }
    }
  });

  it('serves interactive docs at /docs', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/docs' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    const spec = await t.app.inject({ method: 'GET', url: '/docs/json' });
    expect(spec.json().openapi).toBe('3.1.0');
  });
});

describe('logging', () => {
  it('logs request ids and never API keys, passwords or Authorization headers', async () => {
    const ann = await signUp(t.app, { password: 'hunter2 is my password' });
    const before = t.logs.length;
    await t.app.inject({
      method: 'GET',
      url: `/api/users/me?apiKey=${encodeURIComponent(ann.apiKey)}`,
      headers: { 'x-request-id': 'log-check-1' },
    });
    await as(t.app, ann, {
      method: 'GET',
      url: '/api/users/me',
      headers: { 'x-request-id': 'log-check-2' },
    });
    await t.app.inject({
      method: 'GET',
      url: '/api/users/me',
      headers: {
        authorization:
          'Basic ' + Buffer.from(`${ann.email}:hunter2 is my password`).toString('base64'),
      },
    });
    const lines = t.logs.slice(before).join('\n');
    expect(lines).toContain('log-check-1');
    expect(lines).toContain('log-check-2');
    expect(lines).toContain('[redacted]');
    expect(lines).not.toContain(ann.apiKey);
    expect(lines).not.toContain('hunter2');
    expect(lines).not.toContain(
      Buffer.from(`${ann.email}:hunter2 is my password`).toString('base64'),
    );
  });
});

describe('no 5xx for anything a client can send', () => {
  it('survives odd paths, methods, headers and bodies', async () => {
    const ann = await signUp(t.app);
    const odd = [
      { method: 'GET', url: '/api/users/%00' },
      { method: 'GET', url: '/api/users/' + 'a'.repeat(5000) },
      { method: 'GET', url: '/api/users/me?private=' + '%'.repeat(10) },
      { method: 'GET', url: '/api/users/me?apiKey=a&apiKey=b' },
      { method: 'PATCH', url: '/api/users' },
      {
        method: 'POST',
        url: '/api/users',
        payload: '[]',
        headers: { 'content-type': 'application/json' },
      },
      {
        method: 'POST',
        url: '/api/users',
        payload: '"x"',
        headers: { 'content-type': 'application/json' },
      },
      { method: 'POST', url: '/api/users', payload: '{"name":{"a":1},"email":[],"password":null}' },
      {
        method: 'POST',
        url: `/api/users/${ann.id}/meta`,
        payload: '{"a/b":' + '['.repeat(2000) + ']'.repeat(2000) + '}',
      },
      { method: 'GET', url: '/api/users/me', headers: { authorization: 'Basic !!!' } },
      { method: 'GET', url: '/api/users/me', headers: { authorization: 'Bearer x' } },
      { method: 'GET', url: '/api/users/me', headers: { 'x-api-key': 'k'.repeat(10_000) } },
      { method: 'GET', url: '/api/users/me', headers: { 'x-api-version': '2018-02-30' } },
      { method: 'GET', url: '/api/users/me', headers: { 'content-type': '///' } },
    ] as const;
    for (const request of odd) {
      const response = await as(t.app, ann, { ...request });
      expect(
        response.statusCode,
        `${request.method} ${request.url.slice(0, 60)}: ${response.body}`,
      ).toBeLessThan(500);
      expect(response.headers['content-type']).toBeDefined();
    }
  });
});
