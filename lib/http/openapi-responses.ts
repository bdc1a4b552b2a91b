import { RATE_HEADERS, UNAVAILABLE, type JsonSchema } from './openapi-components.js';

/**
 * The responses of one operation of the OpenAPI document (lib/http/openapi.ts): the success and
 * every error status the gateway or the action can answer, each with the headers the gateway
 * actually sends on it. Generic statuses follow from what the operation is (authenticated, with a
 * path parameter, with a JSON body, taking an Idempotency-Key); what only the action knows (a 409,
 * the 401 of a public login) comes from its `openapi.errors`.
 */

/** What decides an operation's responses. */
export interface ResponseFacts {
  /** Success status (the action's httpStatus, 200 by default). */
  status: number;
  /** The success body: `content` of the success response. */
  content: Record<string, unknown>;
  /** Non-JSON success: its media type (a raw download). */
  contentType?: string;
  /** The route requires a credential (auth other than 'none'). */
  authenticated: boolean;
  hasPathParams: boolean;
  /** The operation documents a JSON request body (every write). */
  takesBody: boolean;
  /** An Idempotency-Key is honoured: a repetition is answered from the stored outcome. */
  idempotencyKey: false | 'refuse-busy' | 'document';
  /** Path template of the Location header of a 201 (services/gateway/body.ts setLocation). */
  location?: string;
  /** Status → description of the statuses only the action knows. */
  errors?: Readonly<Record<number, string>>;
  /** Other success statuses with the same body (a repeat answered 200, a first installation 201). */
  alsoAnswers?: Readonly<Record<number, string>>;
}

const ERROR_CONTENT = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } };

/** Sent by the gateway only on a replay (services/api-gateway.service.ts, authorize). */
const REPLAYED = {
  'Idempotent-Replayed': {
    schema: { type: 'string', const: 'true' },
    description: 'Presente (true) só quando esta é a resposta gravada de uma requisição anterior com a mesma Idempotency-Key, devolvida sem reprocessar; X-Request-Id é então o da requisição original.',
  },
};

/** 429: always 1 s, not computed (API.md, Limits; lib/http/error-envelope.ts retryAfterSeconds). */
export const RATE_LIMITED = {
  description: 'RATE_LIMIT_EXCEEDED: limite de requisições por segundo da janela excedido; repita após Retry-After.',
  headers: { 'Retry-After': { schema: { type: 'integer', const: 1 }, description: 'Sempre 1 (segundo): a janela é de 1 s.' }, ...RATE_HEADERS },
  content: ERROR_CONTENT,
};

/**
 * Content-Disposition of the raw downloads, by media type: every XML and PDF route answers
 * `attachment`, every HTML route `inline` (the actions' ctx.meta.$responseHeaders). Other raw
 * types (the issuer's logo image) send none.
 */
const DISPOSITION: Readonly<Record<string, string>> = {
  'application/xml': 'attachment; filename="<nome>.xml"',
  'application/pdf': 'attachment; filename="<nome>.pdf"',
  'text/html': 'inline; filename="<nome>.html"',
};

/** The generic statuses, in Portuguese: what causes each. */
const GENERIC: Readonly<Record<number, string>> = {
  400: 'Erro no envelope padrão',
  401: 'Credencial ausente ou inválida (X-RateLimit-* da janela por IP)',
  403: 'Erro no envelope padrão',
  404: 'NOT_FOUND: recurso do caminho inexistente ou de outro parceiro.',
  409: 'IDEMPOTENCIA_EM_ANDAMENTO: a requisição com esta Idempotency-Key ainda está em processamento.',
  413: 'PAYLOAD_TOO_LARGE: corpo acima do limite (BODY_LIMIT, 5 MB por padrão).',
  415: 'UNSUPPORTED_MEDIA_TYPE: corpo com Content-Type que não é application/json nem application/*+json.',
  422: 'Erro no envelope padrão',
};

/** The statuses a replay can repeat (services/gateway/idempotency.ts isReplayable). */
const REPLAYABLE_ERRORS = new Set([400, 404, 409, 422]);

export function operationResponses(f: ResponseFacts): Record<string, unknown> {
  const replays = f.idempotencyKey !== false;
  const error = (status: number, description: string) => ({
    description,
    headers: { ...RATE_HEADERS, ...(replays && REPLAYABLE_ERRORS.has(status) ? REPLAYED : {}) },
    content: ERROR_CONTENT,
  });
  const disposition = f.contentType ? DISPOSITION[f.contentType] : undefined;
  const successHeaders: JsonSchema = {
    ...RATE_HEADERS,
    ...(f.location && f.status === 201 ? { Location: { schema: { type: 'string', format: 'uri-reference' }, description: `Caminho do recurso criado (${f.location}), igual a data.links.self.` } } : {}),
    ...(disposition ? { 'Content-Disposition': { schema: { type: 'string' }, description: disposition } } : {}),
    ...(replays ? REPLAYED : {}),
  };
  const statuses = new Set<number>([400, 422]);
  if (f.authenticated) { statuses.add(401); statuses.add(403); }
  if (f.hasPathParams) statuses.add(404);
  if (f.takesBody) { statuses.add(413); statuses.add(415); }
  // A document route binds the key to its document and is never refused as in progress.
  if (f.idempotencyKey === 'refuse-busy') statuses.add(409);
  for (const s of Object.keys(f.errors ?? {})) statuses.add(Number(s));
  const responses: Record<string, unknown> = { [f.status]: { description: 'OK', headers: successHeaders, content: f.content } };
  for (const [s, description] of Object.entries(f.alsoAnswers ?? {})) responses[s] = { description, headers: successHeaders, content: f.content };
  for (const s of [...statuses].sort((a, b) => a - b)) {
    const own = f.errors?.[s];
    const busy = s === 409 && f.idempotencyKey === 'refuse-busy' && own ? ` Ou ${GENERIC[409]}` : '';
    responses[s] = error(s, own ? own + busy : GENERIC[s] ?? 'Erro no envelope padrão');
  }
  responses[429] = RATE_LIMITED;
  responses[503] = { ...UNAVAILABLE, headers: { ...UNAVAILABLE.headers, ...RATE_HEADERS } };
  responses.default = error(0, 'Erro no envelope padrão');
  return responses;
}
