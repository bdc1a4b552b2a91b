import type { Service, ServiceSchema } from 'moleculer';
import ApiService from 'moleculer-web';
import type { ServerResponse } from 'node:http';
import { DbMixin } from './mixins/db.mixin.js';
import { migrations } from '../migrations/gateway/index.js';
import { runtimeOf } from './shared/runtime.js';
import { renderError, retryAfterSeconds, successEnvelope } from '../lib/http/error-envelope.js';
import { resolveRequestId } from '../lib/http/request-id.js';
import { unstorableTextRefusal } from '../lib/http/unstorable-text.js';
import { dropMissingLocationWarning, jsonBodyParser, normalizeError, setLocation, type GatewayRequest } from './gateway/body.js';
import { restoreProtoKey } from './gateway/proto-key.js';
import { buildOpenApi, type RouteDoc } from '../lib/http/openapi.js';
import { REQUEST_EXAMPLES, RESPONSE_SCHEMAS, SUPPLEMENT_COMPONENTS } from './gateway/openapi-supplement.js';
import { DocsMixin, REDOC_PATH, monitoringPaths } from './gateway/docs.js';
import { DomainError } from '../lib/errors/index.js';
import { rateWindowMethods } from './gateway/rate-windows.js';
import { answerUnparsedRequests } from './gateway/unparsed-request.js';
import { IdempotencyStore, fingerprint, isReplayable } from './gateway/idempotency.js';
import { namingBoundDocument } from './gateway/bound-document.js';
import type { Caller } from './shared/caller.js';
import { requestLog } from './shared/request-log.js';
import { listenAsGateway } from './gateway/listen.js';
import { attachAccessLog, noteAnsweredIssuer, type LoggedResponse } from './gateway/access-log.js';
import { monitoringActions } from './gateway/monitoring-actions.js';
import { checkMetricsToken } from './gateway/metrics-scrape.js';
import { metricsOf } from './shared/metrics.js';
import { gatewayService, type GatewayCtx, type GatewaySelf } from './gateway/service-this.js';

export { API_VERSION } from '../lib/version.js';
import { API_VERSION } from '../lib/version.js';

type Req = GatewayRequest;

/**
 * HTTP gateway. Routes are not listed here: every action that declares `rest` is published under
 * /v1 (moleculer-web autoAliases), across all nodes. The gateway owns the cross-cutting rules of
 * API.md: envelopes, X-Request-Id, authentication by JWT or API key (delegated to v1.auth),
 * per-partner and per-IP rate limits, Idempotency-Key, and the OpenAPI document.
 *
 * Action flags it reads: `auth` ('none' | 'any' (default) | 'jwt' | 'mfa'), `roles`, `probe` (a
 * public route answered even while Redis cannot count its per-IP window: probes, the scrape), `metricsToken` (METRICS_TOKEN applies),
 * `refuseTestKey` (catalogued 403 code for ek_test_ keys), `httpStatus` (success status), `raw`
 * (no envelope: downloads), `openapi` (docs), `idempotency: false` (never store the response for
 * Idempotency-Key replay: secret reveals), `idempotency: 'document'` (the action binds the key to
 * the document it creates: a retry is never refused as in progress, and an answer the action marks
 * `$idempotencyKeep: false` — a state still changing — is not stored for replay; its
 * `idempotencyLookup` names the bound document in a 5xx the gateway answers itself).
 */
const ApiGateway: ServiceSchema = {
  name: 'api',
  // DocsMixin: the actions behind /docs and /errors (aliases below, in the monitoring route).
  mixins: [ApiService as any, DbMixin({ schema: 'gateway', migrations }), DocsMixin],
  settings: {
    port: 3000,
    ip: '0.0.0.0',
    log4XXResponses: false,
    // One access-log line per request instead (services/gateway/access-log.ts); the route table at debug.
    logRequest: null,
    logResponse: null,
    logRouteRegistration: 'debug',
    logRequestParams: null,
    logResponseData: null,
    optimizeOrder: true,
    rootCallOptions(options: any, req: Req, res: ServerResponse) {
      const id = resolveRequestId(req.headers['x-request-id']);
      options.requestID = id;
      req.$requestId = id;
      res.setHeader('X-Request-Id', id);
    },
    routes: [
      {
        name: 'v1',
        path: '/v1',
        autoAliases: true,
        mappingPolicy: 'restrict',
        authentication: true,
        authorization: true,
        callOptions: { timeout: 90_000 },
        bodyParsers: false,
        use: [jsonBodyParser({ limit: '5mb', strict: false })],
        onAfterCall(this: GatewaySelf, ctx: GatewayCtx, _route: unknown, req: Req, res: ServerResponse, data: unknown) {
          return this.wrapSuccess(ctx, req, res, data);
        },
      },
      {
        name: 'monitoring',
        path: '/',
        mappingPolicy: 'restrict',
        authentication: true,
        bodyParsers: false,
        aliases: {
          'GET health': 'api.health',
          'GET health/live': 'api.live',
          'GET health/ready': 'api.ready',
          'GET metrics': 'api.metrics',
          'GET version': 'api.version',
          'GET api-docs-json': 'api.openapi',
          'GET docs': 'api.docs',
          [`GET ${REDOC_PATH.slice(1)}`]: 'api.redoc',
          'GET errors': 'api.errorIndex',
          'GET errors/:code': 'api.errorPage',
        },
        onAfterCall(this: GatewaySelf, ctx: GatewayCtx, _route: unknown, req: Req, res: ServerResponse, data: unknown) {
          return this.wrapSuccess(ctx, req, res, data);
        },
      },
    ],
    onError(this: GatewaySelf, req: Req, res: ServerResponse, err: unknown) {
      void this.sendErrorEnvelope(req, res, err);
    },
  },

  actions: {
    // moleculer-web's route listing would be published under /v1; the OpenAPI document replaces it.
    listAliases: false as any,
    ...monitoringActions,
    version: {
      auth: 'none',
      handler(this: Service) {
        return { version: API_VERSION, apiVersion: 'v1', build: runtimeOf(this.broker).config.build, node: this.broker.nodeID };
      },
    },
    openapi: {
      auth: 'none',
      // The document itself, not wrapped in { data, meta }: generators and Swagger UI read it as is.
      raw: true,
      handler(this: GatewaySelf) {
        return this.openApiDocument();
      },
    },
  },

  methods: {
    // limit, countedRefusal, clientIp: the per-partner and per-IP windows (API.md, Limits).
    ...rateWindowMethods,
    /** Every published /v1 route with its action definition, from the live route table. */
    publishedRoutes(this: GatewaySelf): RouteDoc[] {
      const defs = new Map<string, any>();
      for (const svc of this.broker.registry.getServiceList({ onlyAvailable: true, withActions: true })) {
        for (const a of Object.values<any>(svc.actions ?? {})) defs.set(a.name, a);
      }
      const out: RouteDoc[] = [];
      for (const alias of this.aliases) {
        if (!alias.route || alias.route.path !== '/v1' || !alias.action) continue;
        const def = defs.get(alias.action) ?? {};
        out.push({
          method: alias.method === '*' ? 'POST' : alias.method,
          path: alias.fullPath,
          action: alias.action,
          params: def.params,
          auth: def.auth ?? 'any',
          roles: def.roles,
          httpStatus: def.httpStatus,
          idempotency: def.idempotency,
          openapi: def.openapi,
        });
      }
      return out;
    },

    openApiDocument(this: GatewaySelf) {
      const { config } = runtimeOf(this.broker);
      return buildOpenApi({ version: API_VERSION, baseUrl: config.baseUrl, errorsBase: config.errorsBase }, this.publishedRoutes(), {
        requestExamples: REQUEST_EXAMPLES, responses: RESPONSE_SCHEMAS, components: SUPPLEMENT_COMPONENTS, paths: monitoringPaths(),
      });
    },

    /**
     * moleculer-web authentication hook. Public routes are limited per IP; every other route
     * needs a JWT or an API key, resolved by v1.auth (behind each auth node's cache, which every
     * revocation drops on every node before it answers, so a logout holds at once), then limited per partner.
     */
    async authenticate(this: GatewaySelf, ctx: GatewayCtx, _route: unknown, req: Req, res: ServerResponse) {
      const action = req.$action ?? {};
      const auth: string = action.auth ?? 'any';
      ctx.meta.ip = this.clientIp(req);
      if (auth === 'none') {
        // Every public route counts against the per-IP window, probes and the scrape included
        // (API.md, Limits names /health and /health/live): an orchestrator polling every few
        // seconds stays far below IP_RATE_LIMIT. Counted first, so a METRICS_TOKEN 401 carries X-RateLimit-* too.
        await this.limit(res, `ip:${ctx.meta.ip}`, runtimeOf(this.broker).config.rateLimit.ipPerSecond, action.probe === true);
        if (action.metricsToken) checkMetricsToken(runtimeOf(this.broker).config.metricsToken, req.headers.authorization);
        return null;
      }
      const authorization = typeof req.headers.authorization === 'string' ? req.headers.authorization : undefined;
      const apiKey = typeof req.headers['x-api-key'] === 'string' ? req.headers['x-api-key'] : undefined;
      // A request that names no partner is limited like the public routes, per IP, so its 401 also
      // carries X-RateLimit-* (API.md, Limits: headers on every response) and a credential
      // flood from one address meets the same window. Both 401 paths pay the same hit: no timing
      // difference between a missing, unknown or wrong credential.
      const refuseAnonymous = async (err: unknown) => {
        await this.limit(res, `ip:${ctx.meta.ip}`, runtimeOf(this.broker).config.rateLimit.ipPerSecond);
        throw err;
      };
      if (!authorization && !apiKey) return refuseAnonymous(new DomainError('UNAUTHORIZED', undefined, 'Autenticação necessária: envie x-api-key ou Authorization: Bearer.'));
      const caller: Caller = await ctx.call<Caller, { authorization?: string; apiKey?: string; purpose: 'mfa' | 'api' }>('v1.auth.authenticate', { authorization, apiKey, purpose: auth === 'mfa' ? 'mfa' : 'api' })
        .catch((err: { code?: unknown } | undefined) => (Number(err?.code) === 401 ? refuseAnonymous(err) : Promise.reject(err)));
      await this.limit(res, `p:${caller.partnerId ?? `u:${caller.userId}`}`, caller.rateLimit);
      if (auth === 'jwt' && caller.scheme !== 'jwt') throw new DomainError('FORBIDDEN', undefined, 'Esta rota exige login (Authorization: Bearer).');
      if (Array.isArray(action.roles) && action.roles.length && !action.roles.includes(caller.role)) throw new DomainError('PERMISSAO_INSUFICIENTE');
      // Who may call comes before what was sent: these refusals precede the action's params
      // validation, so an ek_test_ key on a webhook write gets its 403 whatever the body (API.md,
      // Events > Delivery 4).
      if (action.refuseTestKey && caller.keyKind === 'test') throw new DomainError(action.refuseTestKey);
      ctx.meta.caller = caller;
      return caller;
    },

    /**
     * Runs after authentication: refuses a body that did not parse (jsonBodyParser) and text no
     * store can keep (lib/http/unstorable-text.ts), then claims
     * the Idempotency-Key of a POST, or replays its outcome.
     */
    async authorize(this: GatewaySelf, ctx: GatewayCtx, route: { path: string }, req: Req, res: ServerResponse) {
      if (req.$bodyError) throw req.$bodyError;
      // Body, query and path parameters, merged by moleculer-web, which loses a `__proto__` key (gateway/proto-key.ts).
      restoreProtoKey(req.$params, req.body);
      const unstorable = unstorableTextRefusal(req.$params);
      if (unstorable) throw unstorable;
      const caller: Caller | undefined = ctx.meta.caller;
      const key = req.headers['idempotency-key'];
      if (req.method !== 'POST' || !caller || typeof key !== 'string' || !key) return;
      // Routes that reveal a secret (`idempotency: false`) are never stored: a replay record would
      // keep the secret in clear for 24 hours.
      if (req.$action?.idempotency === false) return;
      if (key.length > 255) throw new DomainError('VALIDATION_ERROR', { errors: [{ field: 'Idempotency-Key', message: 'Idempotency-Key aceita no máximo 255 caracteres.' }] });
      const routeKey = `${req.method} ${route.path}${(req.parsedUrl ?? req.url ?? '').slice(route.path.length) || ''}`.split('?')[0]!;
      const store = new IdempotencyStore(this.knex, this.t('idempotency_keys'));
      const whenBusy = req.$action?.idempotency === 'document' ? 'proceed' : 'refuse';
      const outcome = await store.begin(caller.partnerId ?? `u:${caller.userId}`, routeKey, key, fingerprint(req.method, routeKey, req.body ?? {}), () => runtimeOf(this.broker).clock.now(), whenBusy);
      if (outcome.kind === 'replay') {
        res.setHeader('Idempotent-Replayed', 'true');
        throw Object.assign(new Error('replay'), { $replay: outcome });
      }
      req.$idempotencyId = outcome.id;
      ctx.meta.idempotencyKey = key;
      if (outcome.firstUse) ctx.meta.idempotencyFirstUse = true;
    },

    async wrapSuccess(this: GatewaySelf, ctx: GatewayCtx, req: Req, res: ServerResponse, data: unknown) {
      const action = req.$action ?? {};
      if (action.raw || ctx.meta.$rawResponse) return data;
      const status = Number(ctx.meta.$statusCode ?? action.httpStatus ?? 200);
      ctx.meta.$statusCode = status;
      const body = successEnvelope(data, req.$requestId, runtimeOf(this.broker).clock.now().toISOString());
      noteAnsweredIssuer(res, data);
      // moleculer-web sets Location from ctx.meta.$location, and warns on a 201 without it.
      const location = setLocation(res, status, body);
      if (location) ctx.meta.$location = location;
      if (req.$idempotencyId !== undefined) {
        // The work is done: failing to record it (the database lost meanwhile) must not turn the
        // answer into an error. A retry then runs again, which a document route answers from its binding.
        await new IdempotencyStore(this.knex, this.t('idempotency_keys')).settle(req.$idempotencyId, ctx.meta.$idempotencyKeep !== false, status, body)
          .catch((err: Error) => requestLog(this.logger, req.$requestId).warn({ err: err.message }, 'idempotency record not updated after success'));
      }
      return body;
    },

    /** Replaces moleculer-web's handler, which logs client errors; 5xx are logged by sendErrorEnvelope. */
    errorHandler(this: GatewaySelf, req: Req, res: ServerResponse, err: unknown) {
      void this.sendErrorEnvelope(req, res, err);
    },

    /** A 404 whose path exists under another method is a 405 with Allow. */
    allowedMethods(this: GatewaySelf, req: Req): string[] {
      const path = (req.originalUrl ?? req.url ?? '').split('?')[0]!.replace(/\/+$/, '') || '/';
      const methods = new Set<string>();
      for (const alias of this.aliases) if (alias.re?.exec(path)) methods.add(alias.method === '*' ? 'POST' : alias.method);
      return [...methods];
    },

    async sendErrorEnvelope(this: GatewaySelf, req: Req, res: ServerResponse, raw: any) {
      const log = requestLog(this.logger, req.$requestId);
      try {
        if (raw?.$replay) {
          // The stored body is returned identically; its requestId must still equal X-Request-Id
          // (API.md, Errors > Envelope), so the replay answers under the original request's id.
          const original = raw.$replay.body?.error?.requestId ?? raw.$replay.body?.meta?.requestId;
          if (typeof original === 'string') res.setHeader('X-Request-Id', original);
          res.statusCode = raw.$replay.status;
          const replayedType = raw.$replay.body?.error?.type;
          if (typeof replayedType === 'string') (res as LoggedResponse).$errorCode = replayedType.slice(replayedType.lastIndexOf('/') + 1);
          setLocation(res, raw.$replay.status, raw.$replay.body);
          res.setHeader('Content-Type', 'application/json; charset=utf-8');
          res.end(JSON.stringify(raw.$replay.body));
          return;
        }
        let err = await this.countedRefusal(req, res, normalizeError(raw));
        if (Number(err.code) === 404 && err.type === 'NOT_FOUND' && !req.$action) {
          const allowed = this.allowedMethods(req);
          if (allowed.length && !allowed.includes(String(req.method))) {
            res.setHeader('Allow', allowed.join(', '));
            err = new DomainError('METHOD_NOT_ALLOWED');
          } else {
            err = new DomainError('NOT_FOUND', undefined, 'Rota não encontrada.');
          }
        }
        const { config, clock } = runtimeOf(this.broker);
        const requestId = req.$requestId ?? resolveRequestId(undefined);
        const envelopeCtx = { errorsBase: config.errorsBase, instance: (req.originalUrl ?? req.url ?? '').split('?')[0]!, requestId, timestamp: clock.now().toISOString() };
        let { status, body } = renderError(err, envelopeCtx);
        const named = await namingBoundDocument(this.broker, req.$action?.idempotencyLookup, { partnerId: req.$ctx?.meta?.caller?.partnerId, key: req.headers['idempotency-key'] }, status, body);
        if (named) ({ status, body } = renderError(named, envelopeCtx));
        (res as LoggedResponse).$errorCode = body.error.type.slice(body.error.type.lastIndexOf('/') + 1);
        // A 5xx our code chose (a DomainError: the authority did not answer, a lookup provider
        // failed) or any 503 (a node or the database unreachable) is an operational condition,
        // logged as a warning without a stack; anything else is a fault to look at.
        if (status >= 500 && (raw?.name === 'DomainError' || status === 503)) log.warn({ status, type: err.type, detail: raw?.message }, 'request refused: dependency unavailable');
        else if (status >= 500) log.error({ err: { name: raw?.name, message: raw?.message, type: raw?.type, stack: raw?.stack } }, 'request failed');
        if (req.$idempotencyId !== undefined) {
          // Bookkeeping must never cost the client its envelope (the database may be what failed).
          await new IdempotencyStore(this.knex, this.t('idempotency_keys')).settle(req.$idempotencyId, isReplayable(status, typeof err.type === 'string' ? err.type : undefined), status, body)
            .catch((e: Error) => log.warn({ err: e.message }, 'idempotency record not updated after an error'));
        }
        if (res.headersSent) return;
        const retryAfter = retryAfterSeconds(status);
        if (retryAfter !== undefined) res.setHeader('Retry-After', String(retryAfter));
        res.setHeader('X-Request-Id', requestId);
        res.statusCode = status;
        res.setHeader('Content-Type', 'application/json; charset=utf-8');
        res.end(JSON.stringify(body));
      } catch (fatal) {
        log.error({ err: (fatal as Error).message }, 'error rendering failed');
        // Still an envelope (API.md, Errors), never an empty body: renderError is pure and cannot fail.
        if (!res.headersSent) {
          const { status, body } = renderError({}, { errorsBase: '', instance: (req.url ?? '').split('?')[0]!, requestId: req.$requestId ?? '', timestamp: new Date().toISOString() });
          res.statusCode = status;
          res.end(JSON.stringify(body));
        }
      }
    },
  },

  /** Runs before moleculer-web builds its server and routes, so configuration reaches them. */
  merged(this: Service, schema: any) {
    const { config } = runtimeOf(this.broker);
    schema.settings.port = config.http.port;
    schema.settings.ip = config.http.host;
    schema.settings.routes[0].use = [jsonBodyParser({ limit: config.http.bodyLimit, strict: false })];
  },

  created(this: Service) {
    const self = gatewayService(this);
    if (self.server) {
      listenAsGateway(self.server, runtimeOf(self.broker).config.http.listenBacklog);
      dropMissingLocationWarning(self.logger);
      attachAccessLog(self.server, self.logger, metricsOf(self.broker));
      answerUnparsedRequests(self);
    }
  },

  async started(this: Service) {
    const self = gatewayService(this);
    // Purge expired idempotency records; on several nodes the DELETE is simply shared.
    self.purgeTimer = setInterval(() => {
      new IdempotencyStore(self.knex, self.t('idempotency_keys')).purgeExpired(runtimeOf(self.broker).clock.now())
        .catch((e: Error) => self.logger.warn({ err: e.message }, 'idempotency purge failed'));
    }, 10 * 60 * 1000);
    self.purgeTimer.unref?.();
  },

  stopped(this: Service) {
    clearInterval(gatewayService(this).purgeTimer);
  },
};

export default ApiGateway;
