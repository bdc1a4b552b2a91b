import { STATUS_CODES } from 'node:http';
import { CATALOG, isCatalogued } from '../errors/index.js';
import { isDependencyUnreachable } from '../errors/unavailable.js';

/** What any thrown error looks like after crossing the transporter: plain fields only. */
export interface ErrorLike {
  name?: string;
  message?: string;
  code?: unknown;
  type?: unknown;
  data?: unknown;
}

export interface EnvelopeContext {
  errorsBase: string;
  instance: string;
  requestId: string;
  timestamp: string;
}

export interface ErrorEnvelope {
  error: {
    type: string;
    title: string;
    status: number;
    detail: string;
    errors?: { field: string; message: string }[];
    erros?: { codigo: string; descricao: string }[];
    details?: Record<string, unknown>;
    instance: string;
    requestId: string;
    timestamp: string;
  };
}

/** API.md, Errors > Slug rule 2: the fixed map by status. */
const SLUG_BY_STATUS: Record<number, string> = {
  400: 'BAD_REQUEST', 401: 'UNAUTHORIZED', 403: 'FORBIDDEN', 404: 'NOT_FOUND', 405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT', 413: 'PAYLOAD_TOO_LARGE', 415: 'UNSUPPORTED_MEDIA_TYPE', 422: 'UNPROCESSABLE_ENTITY',
  429: 'RATE_LIMIT_EXCEEDED', 500: 'INTERNAL_ERROR', 502: 'BAD_GATEWAY', 503: 'SERVICE_UNAVAILABLE', 504: 'GATEWAY_TIMEOUT',
};

/** Moleculer and moleculer-web framework errors, by their `type`, to what the client should see. */
const FRAMEWORK: Record<string, { status: number; slug: string; detail?: string }> = {
  SERVICE_NOT_FOUND: { status: 503, slug: 'SERVICE_UNAVAILABLE' },
  SERVICE_NOT_AVAILABLE: { status: 503, slug: 'SERVICE_UNAVAILABLE' },
  REQUEST_TIMEOUT: { status: 504, slug: 'GATEWAY_TIMEOUT' },
  REQUEST_SKIPPED: { status: 504, slug: 'GATEWAY_TIMEOUT' },
  REQUEST_REJECTED: { status: 503, slug: 'SERVICE_UNAVAILABLE' },
  QUEUE_FULL: { status: 503, slug: 'SERVICE_UNAVAILABLE' },
  CIRCUIT_BREAKER_OPEN: { status: 503, slug: 'SERVICE_UNAVAILABLE' },
  NOT_FOUND: { status: 404, slug: 'NOT_FOUND' },
  INVALID_REQUEST_BODY: { status: 400, slug: 'BAD_REQUEST', detail: 'Corpo da requisição não é JSON válido.' },
  // moleculer-web's decodeURIComponent of a path parameter failed (`%zz`, `ab%`, `%ED%A0%80`).
  UNABLE_DECODE_PARAM: { status: 400, slug: 'BAD_REQUEST', detail: 'Parâmetro do caminho com codificação percentual inválida.' },
  UNAUTHORIZED: { status: 401, slug: 'UNAUTHORIZED' },
  NO_TOKEN: { status: 401, slug: 'UNAUTHORIZED' },
  INVALID_TOKEN: { status: 401, slug: 'UNAUTHORIZED' },
  FORBIDDEN: { status: 403, slug: 'FORBIDDEN' },
  RATE_LIMIT_EXCEEDED: { status: 429, slug: 'RATE_LIMIT_EXCEEDED' },
};

function statusOf(err: ErrorLike): number {
  const code = Number(err.code);
  return Number.isInteger(code) && code >= 400 && code <= 599 ? code : 500;
}

function asRecord(v: unknown): Record<string, unknown> | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** Moleculer's own ValidationError carries `data` as an array of fastest-validator failures. */
function fieldErrorsFromArray(data: unknown[]): { field: string; message: string }[] {
  return data.map((d) => {
    const r = asRecord(d) ?? {};
    return { field: String(r.field ?? ''), message: String(r.message ?? 'Valor inválido.') };
  });
}

/**
 * Renders any error as the envelope of API.md, Errors > Envelope, with the slug rules:
 * a catalogued code is its own slug; array-shaped validation failures are VALIDATION_ERROR;
 * a code outside the catalogue becomes RECUSA_NAO_CATALOGADA with its status kept; anything else
 * falls back to the status map. Internal failures (5xx without a catalogued code) never leak text.
 */
export function renderError(err: ErrorLike, ctx: EnvelopeContext): { status: number; body: ErrorEnvelope } {
  let status = statusOf(err);
  const type = typeof err.type === 'string' ? err.type : undefined;
  const data = err.data;
  let slug: string;
  let detail = typeof err.message === 'string' && err.message ? err.message : undefined;
  let errors: { field: string; message: string }[] | undefined;
  let erros: { codigo: string; descricao: string }[] | undefined;
  let details: Record<string, unknown> | undefined;

  if (Array.isArray(data) && (type === 'VALIDATION_ERROR' || status === 422 || status === 400)) {
    // Rule 3: array-shaped validation failures (Moleculer's built-in validator).
    status = 400;
    slug = 'VALIDATION_ERROR';
    errors = fieldErrorsFromArray(data);
    detail = CATALOG.VALIDATION_ERROR.detail;
  } else if (type && isCatalogued(type)) {
    slug = type;
    if (slug === 'VALIDATION_ERROR') status = 400;
    const rec = asRecord(data);
    if (rec) {
      const { errors: e, erros: es, details: d, ...rest } = rec;
      if (Array.isArray(e)) errors = fieldErrorsFromArray(e);
      else if (Array.isArray(es)) erros = es.map((x) => { const r = asRecord(x) ?? {}; return { codigo: String(r.codigo ?? ''), descricao: String(r.descricao ?? '') }; });
      const merged = { ...(asRecord(d) ?? {}), ...rest };
      if (Object.keys(merged).length) details = merged;
    }
    // Rule 3 again: a field-by-field refusal is VALIDATION_ERROR, never the generic BAD_REQUEST a
    // handler named (a wrong current password, a wrong TOTP code); its own detail stays.
    if (slug === 'BAD_REQUEST' && errors) slug = 'VALIDATION_ERROR';
  } else if (type && FRAMEWORK[type]) {
    const f = FRAMEWORK[type]!;
    status = f.status;
    slug = f.slug;
    detail = f.detail ?? (CATALOG as Record<string, { detail: string }>)[slug]?.detail ?? detail;
  } else if (isDependencyUnreachable(err)) {
    // An outage (the database down or unreachable), not a fault of ours: 503, and the client retries.
    status = 503;
    slug = 'SERVICE_UNAVAILABLE';
  } else if (type && status < 500) {
    // Rule 4: a code outside the public catalogue.
    slug = 'RECUSA_NAO_CATALOGADA';
  } else {
    slug = SLUG_BY_STATUS[status] ?? (status >= 500 ? 'INTERNAL_ERROR' : 'BAD_REQUEST');
    if (status >= 500 || !detail) detail = (CATALOG as Record<string, { detail: string }>)[slug]?.detail ?? STATUS_CODES[status];
  }
  if (status >= 500 && !(type && isCatalogued(type))) {
    detail = (CATALOG as Record<string, { detail: string }>)[slug]?.detail ?? CATALOG.INTERNAL_ERROR.detail;
  }

  const body: ErrorEnvelope = {
    error: {
      type: `${ctx.errorsBase}/${slug}`,
      title: STATUS_CODES[status] ?? 'Error',
      status,
      detail: detail ?? STATUS_CODES[status] ?? 'Erro',
      ...(errors ? { errors } : {}),
      ...(!errors && erros ? { erros } : {}),
      ...(details ? { details } : {}),
      instance: ctx.instance,
      requestId: ctx.requestId,
      timestamp: ctx.timestamp,
    },
  };
  return { status, body };
}

export function successEnvelope<T>(data: T, requestId: string, timestamp: string): { data: T; meta: { requestId: string; timestamp: string } } {
  return { data, meta: { requestId, timestamp } };
}

/**
 * Retry-After (seconds) of an error answer: 429 always 1 (API.md, Limits: "not computed"); a 503
 * says the service or a dependency is down for a moment (an outage, the authority unreachable),
 * and a retry — safe under the same Idempotency-Key — is worth it after a few seconds.
 */
export function retryAfterSeconds(status: number): number | undefined {
  if (status === 429) return 1;
  if (status === 503) return 5;
  return undefined;
}
