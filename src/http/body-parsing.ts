/**
 * Body parsing: JSON only. `application/json` (and `application/*+json`) and bodies sent
 * without any Content-Type (real clients do that) are parsed as JSON; an empty body is "no
 * body"; any other declared type is 415. Before JSON.parse, the text is held to the route's
 * budget of values and keys (body-limits.ts), so a body no route could accept is refused
 * after a scan of its first bytes rather than a parse of all of them.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError } from '../domain/errors.js';
import { clip } from '../query/values.js';
import { textBudgetProblem, UNROUTED_BUDGET } from './body-limits.js';
import { routeOf } from './route-of.js';

type Done = (error: Error | null, body?: unknown) => void;

export function registerBodyParsing(app: FastifyInstance): void {
  // Fastify's own JSON parser, which also refuses __proto__ and constructor poisoning.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  const json = (request: FastifyRequest, body: string, done: Done) => {
    if (body.trim() === '') return done(null, undefined);
    const budget = routeOf(request).config.bodyBudget ?? UNROUTED_BUDGET;
    const problem = textBudgetProblem(body, budget);
    if (problem) return done(problem);
    void parseJson(request, body, done);
  };

  app.removeAllContentTypeParsers();
  for (const type of ['application/json', /^application\/[\w.+-]+\+json$/]) {
    app.addContentTypeParser(type, { parseAs: 'string' }, (request, body, done) =>
      json(request, body as string, done),
    );
  }
  // '*' also catches a missing Content-Type: only that case is JSON, the rest are 415.
  app.addContentTypeParser('*', { parseAs: 'string' }, (request, body, done) => {
    if (request.headers['content-type'] === undefined) return json(request, body as string, done);
    done(
      new DomainError(
        'unsupported_media_type',
        `Content-Type ${clip(request.headers['content-type'])} is not accepted; send application/json.`,
      ),
    );
  });
}
