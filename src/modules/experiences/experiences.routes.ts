/** HTTP routes of experiences: each handler is one service call. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ListOf, ListQuery, listErrors } from '../../http/schemas.js';
import { describeList } from '../../query/describe.js';
import { experienceSpec } from './experiences.query.js';
import { Experience } from './experiences.schemas.js';
import type { ExperiencesService } from './experiences.service.js';

const tags = ['experiences'];
const ExperienceRef = Type.Unsafe({ $ref: 'Experience#' });

export const experiencesRoutes: FastifyPluginAsyncTypebox<{
  experiences: ExperiencesService;
}> = async (app, { experiences }) => {
  app.addSchema(Experience);

  app.get(
    '/experiences',
    {
      schema: {
        tags,
        summary: 'List experiences: visible ones for everyone, plus the caller’s own',
        description: describeList(experienceSpec),
        querystring: ListQuery,
        response: { 200: ListOf(ExperienceRef), ...listErrors },
      },
    },
    async (request) => experiences.list(request.caller, request.query),
  );
};
