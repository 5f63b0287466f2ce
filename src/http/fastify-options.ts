/**
 * The Fastify instance's options from the configuration: logging (each request's logger
 * made on first use), validation and serialization compilers, the body limit, the timeouts
 * for slow and idle clients, and problem+json for the framework's own errors.
 */
import { LogController, type FastifyHttpOptions } from 'fastify';
import type { Server } from 'node:http';
import type { Config } from '../config.js';
import { clientErrorHandler, sendScopedProblem, toProblem } from './error-handler.js';
import { loggerOptions } from './logging.js';
import { genReqId } from './request-id.js';
import { requestLoggerFactory } from './request-logger.js';
import { buildSerializer } from './serialization.js';
import { buildValidator } from './validation.js';

export function fastifyOptions(
  config: Config,
  logStream: NodeJS.WritableStream | undefined,
): FastifyHttpOptions<Server> {
  return {
    logger: loggerOptions(config.logLevel, logStream),
    genReqId,
    requestIdHeader: false,
    logController: new LogController({ requestIdLogLabel: 'requestId' }),
    childLoggerFactory: requestLoggerFactory,
    schemaController: {
      compilersFactory: {
        buildValidator: buildValidator as never,
        buildSerializer: buildSerializer as never,
      },
    },
    bodyLimit: config.bodyLimit,
    // Behind a load balancer (TRUST_PROXY), request.ip is the client it names: every limit
    // kept per address (anonymous calls, failed sign-ins, checkout) counts that client, not
    // the balancer that all clients share.
    ...(config.trustProxy.length > 0 ? { trustProxy: [...config.trustProxy] } : {}),
    // Slow and idle clients (docs/configuration.md): a connection must send its headers in
    // time, an idle keep-alive one is closed, and the checks run every second.
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.sockets.keepAliveTimeoutMs,
    connectionTimeout: config.sockets.idleTimeoutMs,
    http: {
      headersTimeout:
        config.requestTimeoutMs > 0
          ? Math.min(config.sockets.headersTimeoutMs, config.requestTimeoutMs)
          : config.sockets.headersTimeoutMs,
      connectionsCheckingInterval: 1000,
    },
    clientErrorHandler,
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    frameworkErrors: (error, request, reply) => {
      void reply.header('x-request-id', request.id);
      // Under a module's own scope (OCTo), in that scope's error body.
      sendScopedProblem(request, reply, toProblem(error, request));
    },
  };
}
