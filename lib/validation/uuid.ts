/**
 * The one UUID of the request schemas: every `type: 'uuid'` rule (registered in validator.ts) and
 * its OpenAPI pattern (lib/http/openapi.ts). API.md, resolve-servico: "UUID versions 1-8, nil or max
 * UUID" (RFC 9562 §5, §5.9, §5.10). It is fastest-validator's own uuid rule, which every schema
 * used before, plus the max UUID that rule refused: versions 3, 4, 5, 7 and 8 carry the RFC
 * variant (8, 9, a, b) as it checked them, and 1, 2 and 6 never had it checked, so no id accepted
 * before is refused now. Written without flags (JSON Schema patterns have none), either case.
 */
const HEX = '[0-9a-fA-F]';
export const UUID_PATTERN = `^(?:${HEX}{8}-${HEX}{4}-[126]${HEX}{3}-${HEX}{4}-${HEX}{12}`
  + `|${HEX}{8}-${HEX}{4}-[34578]${HEX}{3}-[89abAB]${HEX}{3}-${HEX}{12}`
  + '|0{8}-0{4}-0{4}-0{4}-0{12}'
  + '|[fF]{8}-[fF]{4}-[fF]{4}-[fF]{4}-[fF]{12})$';

const UUID = new RegExp(UUID_PATTERN);

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/**
 * What a stored id (a uuid column) can look like: any 8-4-4-4-12 hex, whatever its version. Checked
 * before a lookup, so a path or token segment that cannot be an id answers 404 (or is ignored)
 * without reaching Postgres, which would refuse the cast. Not a request rule: that is UUID_PATTERN.
 */
const ID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isIdShaped(value: unknown): value is string {
  return typeof value === 'string' && ID_SHAPE.test(value);
}
