/**
 * The browsable contract (issue 21, item 5): /docs renders /api-docs-json with Redoc's standalone
 * bundle served from node_modules (no CDN), and /errors, /errors/<CODE> explain each error `type`
 * (lib/http/error-pages.ts). Also the OpenAPI entries of these and the other routes outside /v1.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Context, ServiceSchema } from 'moleculer';
import { DomainError } from '../../lib/errors/index.js';
import { renderErrorIndex, renderErrorPage } from '../../lib/http/error-pages.js';
import { RATE_HEADERS, UNAVAILABLE } from '../../lib/http/openapi-components.js';
import { RATE_LIMITED } from '../../lib/http/openapi-responses.js';

const require = createRequire(import.meta.url);
let redocBundle: string | undefined;

/** Redoc's self-contained browser bundle (MIT), read once. */
export function redocStandalone(): string {
  redocBundle ??= readFileSync(require.resolve('redoc/bundles/redoc.standalone.js'), 'utf8');
  return redocBundle;
}

export const REDOC_PATH = '/docs/redoc.standalone.js';

/**
 * Nothing leaves the product: Redoc's bundle would fetch its "powered by" logo from its CDN, and
 * the page must work offline. Inline styles are Redoc's (styled-components); its search runs in a blob worker.
 */
export const DOCS_CSP = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; worker-src 'self' blob:; font-src 'self' data:; connect-src 'self'";

export function docsPage(specPath: string): string {
  return `<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>API de documentos fiscais: documentação</title><style>body{margin:0}</style></head>
<body><redoc spec-url="${specPath}" expand-responses="200,201,202"></redoc>
<script src="${REDOC_PATH}"></script></body></html>
`;
}

// Every answer, refusals included, carries X-RateLimit-* of the per-IP window (API.md, Limits).
const ok = (description: string, contentType: string) => ({ description, headers: RATE_HEADERS, content: { [contentType]: { schema: { type: 'string' } } } });
const refused = { description: 'Erro no envelope padrão', headers: RATE_HEADERS, content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } } };
// Every 503 carries Retry-After too (lib/http/error-envelope.ts retryAfterSeconds).
const unavailableRefusal = (description: string) => ({ ...refused, headers: { ...UNAVAILABLE.headers, ...RATE_HEADERS }, description });
/** A public route: limited per IP (IP_RATE_LIMIT), so a 429 past the window. */
const open = (operationId: string, summary: string, success: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  get: { operationId, summary, tags: ['monitoramento'], security: [], ...extra, responses: { 200: success, 429: { ...RATE_LIMITED, description: 'Limite por IP das rotas públicas; repita após Retry-After (1 s).' }, ...(extra.responses as object ?? {}) } },
});
const json = (description: string) => ({ description, headers: RATE_HEADERS, content: { 'application/json': { schema: { type: 'object', description: 'OpenAPI 3.1' } } } });
/** The success envelope around `data`, as the gateway wraps every JSON answer. */
const enveloped = (data: Record<string, unknown>) => ({
  description: 'OK',
  headers: RATE_HEADERS,
  content: { 'application/json': { schema: { type: 'object', required: ['data', 'meta'], properties: { data: { type: 'object', properties: data }, meta: { $ref: '#/components/schemas/Meta' } } } } },
});
const up = { type: 'object', properties: { status: { type: 'string', enum: ['up', 'down'] } } };
/** The database's check also says which one answers (services/gateway/health.ts). */
const database = { type: 'object', properties: { ...up.properties, kind: { type: 'string', enum: ['postgres', 'pglite'] } } };

/**
 * The routes outside /v1, as OpenAPI path items. All public and limited per IP, probes and the
 * scrape included: no exception, an orchestrator's normal probe rate stays far below the limit.
 */
export function monitoringPaths(): Record<string, Record<string, unknown>> {
  const unavailable = { responses: { 503: unavailableRefusal('Dependência indisponível') } };
  return {
    '/health': open('api.health', 'Saúde: banco, Redis (se configurado) e broker. Limite por IP das rotas públicas.', enveloped({
      status: { const: 'ok' }, version: { type: 'string' },
      checks: { type: 'object', properties: { database, redis: up, broker: { type: 'object', properties: { status: { const: 'up' }, nodes: { type: 'array', items: { type: 'string' } }, services: { type: 'array', items: { type: 'string' } } } } } },
    }), unavailable),
    '/health/live': open('api.live', 'Processo vivo. Limite por IP das rotas públicas; responde mesmo com o Redis fora (janela local do nó).', enveloped({ status: { const: 'ok' } })),
    '/health/ready': open('api.ready', 'Prontidão: 503 assim que o nó começa a encerrar (SIGTERM) ou se uma dependência cair. Limite por IP das rotas públicas.',
      enveloped({ status: { const: 'ready' }, node: { type: 'string' } }),
      { responses: { 503: unavailableRefusal('Encerrando ou dependência indisponível') } }),
    '/metrics': open('api.metrics', 'Métricas Prometheus (formato texto) de todos os nós do cluster, com o rótulo node. Limite por IP das rotas públicas.',
      ok('Exposição Prometheus', 'text/plain'), {
        description: 'Aberta por padrão; com METRICS_TOKEN configurado exige Authorization: Bearer <METRICS_TOKEN>.',
        security: [{}, { bearer: [] }],
        responses: { 401: { ...refused, description: 'METRICS_TOKEN configurado e ausente ou diferente' } },
      }),
    '/version': open('api.version', 'Versão da API e build', enveloped({ version: { type: 'string' }, apiVersion: { const: 'v1' }, build: { type: 'string' }, node: { type: 'string' } })),
    '/api-docs-json': open('api.openapi', 'Este documento OpenAPI 3.1', json('O documento, sem envelope')),
    '/docs': open('api.docs', 'Documentação navegável (Redoc) deste documento', ok('Página HTML', 'text/html')),
    '/errors': open('api.errorIndex', 'Todos os códigos de erro, um âncora por código', ok('Página HTML', 'text/html')),
    '/errors/{code}': open('api.errorPage', 'O código de erro de error.type: causa e correção', ok('Página HTML', 'text/html'), {
      parameters: [{ name: 'code', in: 'path', required: true, description: 'O código de error.type, por exemplo CSC_AUSENTE.', schema: { type: 'string', maxLength: 100 } }],
      responses: { 404: { ...refused, description: 'Código fora do catálogo' } },
    }),
  };
}

function html(ctx: Context<any, any>, page: string): string {
  ctx.meta.$responseType = 'text/html; charset=utf-8';
  return page;
}

/** The gateway's actions behind /docs, the Redoc bundle, /errors and /errors/:code (public, `raw`: no envelope). */
export const DocsMixin: Partial<ServiceSchema> = {
  actions: {
    docs: {
      auth: 'none',
      raw: true,
      handler(ctx: Context<any, any>) {
        ctx.meta.$responseHeaders = { 'Content-Security-Policy': DOCS_CSP };
        return html(ctx, docsPage('/api-docs-json'));
      },
    },
    redoc: {
      auth: 'none',
      raw: true,
      handler(ctx: Context<any, any>) {
        ctx.meta.$responseType = 'application/javascript; charset=utf-8';
        ctx.meta.$responseHeaders = { 'Cache-Control': 'public, max-age=86400' };
        return redocStandalone();
      },
    },
    errorIndex: { auth: 'none', raw: true, handler(ctx: Context<any, any>) { return html(ctx, renderErrorIndex({ docs: '/docs' })); } },
    errorPage: {
      auth: 'none',
      raw: true,
      params: { code: { type: 'string', max: 100 } },
      handler(ctx: Context<{ code: string }, any>) {
        const page = renderErrorPage(ctx.params.code, { index: '/errors', docs: '/docs' });
        if (page === undefined) throw new DomainError('NOT_FOUND', undefined, 'Código de erro fora do catálogo.');
        return html(ctx, page);
      },
    },
  },
};
