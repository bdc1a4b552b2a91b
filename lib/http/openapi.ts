import { describePattern } from '../validation/pattern-descriptions.js';
import { UUID_PATTERN } from '../validation/uuid.js';
import { ERROR_ENVELOPE, SECURITY_SCHEMES, tagsOf, type JsonSchema } from './openapi-components.js';
import { operationResponses } from './openapi-responses.js';
import { WEBHOOK_COMPONENTS, webhooksSection } from '../webhooks/openapi.js';

/**
 * Builds the OpenAPI 3.1 document from the same fastest-validator schemas and route table the
 * gateway serves, so the contract cannot drift from the code.
 */
export type { JsonSchema };

export interface RouteDoc {
  method: string;
  /** Full path with `:param` segments, e.g. /v1/companies/:id */
  path: string;
  action: string;
  params?: Record<string, unknown>;
  auth?: 'none' | 'any' | 'jwt' | 'mfa';
  roles?: string[];
  httpStatus?: number;
  /** The action's `idempotency` flag: false ignores an Idempotency-Key (secret reveals); 'document' binds it to the document. */
  idempotency?: boolean | 'document';
  openapi?: {
    summary?: string;
    description?: string;
    tags?: string[];
    /** Params that travel in the query string even on POST. */
    query?: string[];
    /** JSON Schema of `data` in the success envelope. */
    response?: JsonSchema;
    /** Non-JSON success (e.g. application/xml downloads). */
    responseContentType?: string;
    headers?: { name: string; description: string; required?: boolean }[];
    /**
     * fastest-validator schema of a JSON body the handler validates itself (so that the issuer is
     * resolved before the body is judged): documented as the request body, not run by the gateway.
     */
    body?: Record<string, unknown>;
    /** Examples of the request body and of `data` in the success envelope. */
    requestExample?: unknown;
    responseExample?: unknown;
    /** Named schemas this action's `response` refers to as #/components/schemas/<name>. */
    components?: Record<string, JsonSchema>;
    /** Path template of the Location a 201 carries (its data.links.self), e.g. /v1/nfe/{id}. */
    location?: string;
    /**
     * Error statuses only the action knows (a 409 of its state, the 401 of a public login, a 404
     * of an id outside the path), each described with its codes. The builder adds the generic ones.
     */
    errors?: Readonly<Record<number, string>>;
    /** Other success statuses of the same body (a repeat answered 200 where a creation is 201), each described. */
    alsoAnswers?: Readonly<Record<number, string>>;
  };
}

/** What the document carries beyond the actions' own definitions (services/gateway/openapi-supplement.ts). */
export interface OpenApiSupplement {
  requestExamples?: Readonly<Record<string, unknown>>;
  responses?: Readonly<Record<string, JsonSchema>>;
  components?: Readonly<Record<string, JsonSchema>>;
  /** Operations outside /v1 (health, version, docs), as OpenAPI path items. */
  paths?: Readonly<Record<string, Record<string, unknown>>>;
}

function parseShorthand(def: string): Record<string, unknown> {
  const [type, ...flags] = def.split('|');
  const out: Record<string, unknown> = { type };
  for (const f of flags) {
    const [k, v] = f.split(':');
    out[k!] = v === undefined ? true : v === 'true' ? true : v === 'false' ? false : Number.isNaN(Number(v)) ? v : Number(v);
  }
  return out;
}

/** fastest-validator rule → JSON Schema (2020-12, as OpenAPI 3.1 uses). */
export function ruleToJsonSchema(rule: unknown): { schema: JsonSchema; optional: boolean } {
  if (typeof rule === 'string') return ruleToJsonSchema(parseShorthand(rule));
  if (Array.isArray(rule)) {
    const parts = rule.map(ruleToJsonSchema);
    return { schema: { anyOf: parts.map((p) => p.schema) }, optional: parts.every((p) => p.optional) };
  }
  const r = (rule ?? {}) as Record<string, any>;
  const optional = r.optional === true || r.default !== undefined;
  const base: JsonSchema = {};
  if (r.description) base.description = r.description;
  if (r.default !== undefined && typeof r.default !== 'function') base.default = r.default;
  if (r.nullable) base.nullable = true;
  let s: JsonSchema;
  switch (r.type) {
    case 'string':
      s = { type: 'string' };
      if (r.min !== undefined) s.minLength = r.min;
      if (r.max !== undefined) s.maxLength = r.max;
      if (r.length !== undefined) { s.minLength = r.length; s.maxLength = r.length; }
      if (r.pattern) {
        s.pattern = r.pattern instanceof RegExp ? r.pattern.source : String(r.pattern);
        // The words a refusal of this pattern uses (lib/validation/pattern-descriptions.ts).
        const words = describePattern(s.pattern as string);
        if (words) s.description = `Deve ${words}.`;
      }
      if (r.enum) s.enum = r.enum;
      if (r.numeric) s.pattern ??= '^[0-9]*$';
      break;
    case 'email': s = { type: 'string', format: 'email' }; break;
    case 'url': s = { type: 'string', format: 'uri' }; break;
    // The pattern the validator checks (lib/validation/uuid.ts): versions 1-8, nil and max.
    case 'uuid': s = { type: 'string', format: 'uuid', pattern: UUID_PATTERN }; break;
    case 'date': s = { type: 'string', format: 'date-time' }; break;
    case 'boolean': s = { type: 'boolean' }; break;
    case 'number':
      s = { type: r.integer ? 'integer' : 'number' };
      if (r.min !== undefined) s.minimum = r.min;
      if (r.max !== undefined) s.maximum = r.max;
      if (r.positive) s.exclusiveMinimum = 0;
      break;
    case 'decimal': {
      const frac = Number(r.fracDigits ?? 2);
      s = { type: 'number', multipleOf: Number((10 ** -frac).toFixed(frac)), 'x-digits': `${r.intDigits ?? 13}v${frac}` };
      if (r.min !== undefined) s.minimum = r.min;
      if (r.max !== undefined) s.maximum = r.max;
      break;
    }
    case 'enum': s = { enum: r.values }; break;
    case 'equal': s = { const: r.value }; break;
    case 'array': {
      s = { type: 'array' };
      if (r.items !== undefined) s.items = ruleToJsonSchema(r.items).schema;
      if (r.min !== undefined) s.minItems = r.min;
      if (r.max !== undefined) s.maxItems = r.max;
      if (r.length !== undefined) { s.minItems = r.length; s.maxItems = r.length; }
      break;
    }
    case 'object':
      s = r.props ? propsToJsonSchema(r.props, r.strict === true || r.strict === 'remove' ? false : undefined) : { type: 'object' };
      break;
    case 'record': s = { type: 'object', additionalProperties: r.value ? ruleToJsonSchema(r.value).schema : true }; break;
    case 'multi': {
      const parts = (r.rules as unknown[]).map(ruleToJsonSchema);
      s = { anyOf: parts.map((p) => p.schema) };
      break;
    }
    case 'forbidden': s = { not: {} }; break;
    default: s = {};
  }
  const merged: JsonSchema = { ...s, ...base };
  if (merged.nullable) {
    delete merged.nullable;
    return { schema: { anyOf: [merged, { type: 'null' }] }, optional };
  }
  return { schema: merged, optional };
}

export function propsToJsonSchema(props: Record<string, unknown>, additional?: boolean): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [name, rule] of Object.entries(props)) {
    if (name.startsWith('$$')) continue;
    const { schema, optional } = ruleToJsonSchema(rule);
    properties[name] = schema;
    if (!optional) required.push(name);
  }
  const out: JsonSchema = { type: 'object', properties };
  if (required.length) out.required = required;
  const strict = (props as any).$$strict;
  if (additional === false || strict === true) out.additionalProperties = false;
  return out;
}

function securityFor(auth: RouteDoc['auth']): Record<string, string[]>[] {
  switch (auth) {
    case 'none': return [];
    case 'jwt': return [{ bearer: [] }];
    case 'mfa': return [{ bearer: [] }, { mfaToken: [] }];
    default: return [{ apiKey: [] }, { bearer: [] }];
  }
}

export function buildOpenApi(info: { version: string; baseUrl: string; errorsBase: string }, routes: RouteDoc[], supplement: OpenApiSupplement = {}): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  const schemas: Record<string, JsonSchema> = { ...supplement.components, ...WEBHOOK_COMPONENTS };
  for (const r of [...routes].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method))) {
    const pathParams = [...r.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
    const oaPath = r.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const method = r.method.toLowerCase();
    const props = (r.params ?? {}) as Record<string, unknown>;
    const parameters: unknown[] = pathParams.map((name) => ({ name, in: 'path', required: true, schema: props[name] ? ruleToJsonSchema(props[name]).schema : { type: 'string' } }));
    const queryNames = method === 'get' || method === 'delete'
      ? Object.keys(props).filter((k) => !k.startsWith('$$') && !pathParams.includes(k))
      : (r.openapi?.query ?? []);
    for (const name of queryNames) {
      const { schema, optional } = ruleToJsonSchema(props[name]);
      parameters.push({ name, in: 'query', required: !optional, schema });
    }
    for (const [name, schema] of Object.entries(r.openapi?.components ?? {})) schemas[name] ??= schema;
    for (const h of r.openapi?.headers ?? []) parameters.push({ name: h.name, in: 'header', required: !!h.required, description: h.description, schema: { type: 'string' } });
    // The gateway honours the key on an authenticated POST, unless the action opts out (services/api-gateway.service.ts, authorize).
    const takesKey = method === 'post' && r.auth !== 'none' && r.idempotency !== false;
    if (takesKey && !(r.openapi?.headers ?? []).some((h) => h.name === 'Idempotency-Key')) {
      parameters.push({ name: 'Idempotency-Key', in: 'header', required: false, description: 'Mesma chave em 24 h devolve o resultado original sem reprocessar.', schema: { type: 'string', maxLength: 255 } });
    }
    const bodyProps = r.openapi?.body ?? Object.fromEntries(Object.entries(props).filter(([k]) => !pathParams.includes(k) && !queryNames.includes(k)));
    const writes = !['get', 'delete', 'head'].includes(method);
    const hasBody = writes && Object.keys(bodyProps).some((k) => !k.startsWith('$$'));
    const requestExample = r.openapi?.requestExample ?? supplement.requestExamples?.[r.action];
    const responseSchema = r.openapi?.response ?? supplement.responses?.[r.action];
    const content = r.openapi?.responseContentType
      ? { [r.openapi.responseContentType]: { schema: { type: 'string' } } }
      : {
          'application/json': {
            schema: { type: 'object', required: ['data', 'meta'], properties: { data: responseSchema ?? {}, meta: { $ref: '#/components/schemas/Meta' } } },
            ...(r.openapi?.responseExample !== undefined ? { example: { data: r.openapi.responseExample, meta: { requestId: 'req_…', timestamp: '2026-11-25T12:00:00.000Z' } } } : {}),
          },
        };
    const responses = operationResponses({
      status: r.httpStatus ?? 200, content, contentType: r.openapi?.responseContentType, authenticated: r.auth !== 'none',
      hasPathParams: pathParams.length > 0, takesBody: writes, idempotencyKey: !takesKey ? false : r.idempotency === 'document' ? 'document' : 'refuse-busy',
      location: r.openapi?.location, errors: r.openapi?.errors, alsoAnswers: r.openapi?.alsoAnswers,
    });
    paths[oaPath] ??= {};
    paths[oaPath]![method] = {
      operationId: r.action,
      summary: r.openapi?.summary ?? r.action,
      ...(r.openapi?.description ? { description: r.openapi.description } : {}),
      tags: r.openapi?.tags ?? [r.action.split('.').slice(-2, -1)[0] ?? 'api'],
      security: securityFor(r.auth),
      ...(parameters.length ? { parameters: uniqueParameters(parameters) } : {}),
      ...(hasBody ? {
        requestBody: {
          required: true,
          content: { 'application/json': { schema: propsToJsonSchema(bodyProps), ...(requestExample !== undefined ? { example: requestExample } : {}) } },
        },
      } : writes ? {
        // A write without fields still says so: `{}` or no body at all.
        requestBody: {
          required: false,
          content: { 'application/json': { schema: { ...propsToJsonSchema(bodyProps), description: 'Sem campos: envie {} ou nenhum corpo.' }, example: requestExample ?? {} } },
        },
      } : {}),
      responses,
      ...(r.roles?.length ? { 'x-roles': r.roles } : {}),
    };
  }
  const webhooks = webhooksSection();
  return {
    openapi: '3.1.0',
    info: {
      title: 'API de emissão de documentos fiscais (NF-e, NFC-e, NFS-e)',
      version: info.version,
      description: `Contrato gerado dos esquemas que validam cada rota. Cada código de erro (\`error.type\`) tem sua página em ${info.errorsBase}/<CÓDIGO>; documentação navegável em ${info.baseUrl}/docs.`,
      // package.json is private with no licence granted: the document says so rather than invent one.
      license: { name: 'Proprietária: uso sob contrato com o provedor', url: `${info.baseUrl}/docs` },
    },
    servers: [{ url: info.baseUrl }],
    tags: tagsOf({ ...paths, ...supplement.paths }),
    paths: { ...paths, ...supplement.paths },
    // What the partner's endpoint receives (OpenAPI 3.1 webhooks): each event type and its payload.
    webhooks,
    components: {
      securitySchemes: SECURITY_SCHEMES,
      schemas: {
        ErrorEnvelope: ERROR_ENVELOPE,
        Meta: { type: 'object', required: ['requestId', 'timestamp'], properties: { requestId: { type: 'string' }, timestamp: { type: 'string', format: 'date-time' } } },
        ...reachable(schemas, { ...paths, ...supplement.paths, webhooks }),
      },
    },
    'x-errors-base': info.errorsBase,
  };
}

/**
 * The named schemas the operations refer to, directly or through one another. A supplement's
 * schema whose routes this gateway does not publish (their service runs elsewhere, or not at all)
 * would otherwise dangle: say ListaDocumentos, which refers to Documento, without the emission service.
 */
function reachable(schemas: Record<string, JsonSchema>, paths: unknown): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) { node.forEach(visit); return; }
    if (!node || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node)) {
      const name = k === '$ref' && typeof v === 'string' ? /^#\/components\/schemas\/(.+)$/.exec(v)?.[1] : undefined;
      if (name && schemas[name] && !out[name]) { out[name] = schemas[name]!; visit(schemas[name]); } else visit(v);
    }
  };
  visit(paths);
  return out;
}

/** One parameter per (in, name): a header an action declares wins over the default one. */
function uniqueParameters(parameters: unknown[]): unknown[] {
  const seen = new Set<string>();
  return parameters.filter((p) => {
    const { in: where, name } = p as { in: string; name: string };
    const key = `${where}:${where === 'header' ? name.toLowerCase() : name}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
