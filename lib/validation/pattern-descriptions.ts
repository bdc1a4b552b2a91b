import { BASE64_TEXT } from './base64.js';
import { UUID_PATTERN } from './uuid.js';

/**
 * Human Portuguese descriptions of the `pattern` rules of the request schemas (issue 21, item 6):
 * a refusal says "deve ter 2 ou 8 dígitos", never prints the regular expression (fastest-validator's
 * {expected} lost its backslashes: `/^(?:d{2}|d{8})$/`). Digit-count patterns are described from
 * their shape; every other pattern the schemas use is named here by its source. A rule with its
 * own `messages.stringPattern` keeps it.
 */

/** Patterns that are not a plain count of digits, by `RegExp.source`. */
const NAMED: Record<string, string> = {
  // The `uuid` rule's, published in the OpenAPI document; its refusal is MESSAGES_PT.uuid.
  [UUID_PATTERN]: 'ser um UUID (versões 1 a 8, nil ou max)',
  '^(\\d{2,14}|ISENTO)$': 'ter de 2 a 14 dígitos ou ser ISENTO',
  '^(\\d{8}|\\d{12,14}|SEM GTIN)$': 'ser um GTIN de 8, 12, 13 ou 14 dígitos ou SEM GTIN',
  '^([0-9A-Za-z]{8}|[0-9A-Za-z]{10}|SEM CBENEF)$': 'ter 8 ou 10 letras ou dígitos ou ser SEM CBENEF',
  '^[0-9A-Z]{12}\\d{2}$': 'ser um CNPJ de 14 posições (12 letras maiúsculas ou dígitos e 2 dígitos verificadores)',
  '^[0-9A-Za-z]{1,15}$': 'ter de 1 a 15 letras ou dígitos',
  '^[\\x21-\\x7E]{1,36}$': 'ter de 1 a 36 caracteres ASCII visíveis, sem espaços',
  '^[0-9A-Za-z][0-9A-Za-z._-]*$': 'conter só letras, dígitos, ponto, hífen e sublinhado, começando por letra ou dígito',
  '^[0-9A-Za-z-]+$': 'conter só letras, dígitos e hífen',
  [BASE64_TEXT.source]: 'ser um arquivo em base64',
  '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$': 'ser um endereço de e-mail',
  '^\\d{4}-(0[1-9]|1[0-2])$': 'ser um mês no formato AAAA-MM',
  '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$': 'ser uma data no formato AAAA-MM-DD',
  '^20\\d{2}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$': 'ser uma data deste século no formato AAAA-MM-DD',
  '^\\d{1,2}\\.\\d{2}$': 'ser um número com 1 ou 2 dígitos, ponto e 2 casas decimais (por exemplo 1.01)',
  '^\\d{2}\\.?\\d{2}$': 'ter 4 dígitos, com ou sem ponto no meio (por exemplo 01.07)',
  '^[123567]\\d{3}$': 'ser um CFOP de 4 dígitos começando por 1, 2, 3, 5, 6 ou 7',
  '^[A-Z]{2}$': 'ser a sigla da UF em 2 letras maiúsculas',
  '^(A[CLMP]|BA|CE|DF|ES|GO|M[AGST]|P[ABEIR]|R[JNORS]|S[CEP]|TO|EX)$': 'ser a sigla de uma das 27 UFs, ou EX para exterior',
  '^(\\d{4})-(\\d{2})-(\\d{2})T(\\d{2}):(\\d{2}):(\\d{2})(Z|[+-]\\d{2}:\\d{2})$': 'ser data e hora ISO 8601 com segundos e fuso (por exemplo 2026-11-25T14:30:00-03:00)',
  '^[A-Z0-9]{7}$': 'ter 7 letras maiúsculas ou dígitos',
  '^DPS\\d{42}$': 'ser DPS seguido de 42 dígitos',
  '^[!-~\\u00A1-\\u00FF](?:[ -~\\u00A0-\\u00FF]*[!-~\\u00A1-\\u00FF])?$': 'conter só caracteres imprimíveis do leiaute (Latin-1, sem quebra de linha), sem espaço no começo ou no fim',
  '^[!-ÿ](?:[ -ÿ]*[!-ÿ])?$': 'ser texto Latin-1 sem espaços nas pontas',
  '^(?:[\\t\\n\\r\\u0020-\\uD7FF\\uE000-\\uFFFD]|[\\uD800-\\uDBFF][\\uDC00-\\uDFFF])*$': 'conter só caracteres que o XML aceita',
};

const count = (a: string, b?: string): string => (b === undefined ? `${a} dígito${a === '1' ? '' : 's'}` : b === '' ? `${a} ou mais dígitos` : `de ${a} a ${b} dígitos`);

/** `^\d{n}$`, `^\d{a,b}$`, `^\d+$` and alternations of these (`^(\d{11}|\d{14})$`). */
function digitShape(source: string): string | undefined {
  const inner = /^\^(?:\((?:\?:)?(.*)\)|(.*))\$$/.exec(source);
  if (!inner) return undefined;
  const parts = (inner[1] ?? inner[2] ?? '').split('|');
  const described: string[] = [];
  for (const p of parts) {
    if (p === '\\d+' || p === '[0-9]+') { described.push('só dígitos'); continue; }
    const m = /^(?:\\d|\[0-9\])\{(\d+)(?:,(\d*))?\}$/.exec(p);
    if (!m) return undefined;
    described.push(count(m[1]!, m[2]));
  }
  if (described.length === 1) return described[0] === 'só dígitos' ? 'conter só dígitos' : `ter ${described[0]}`;
  // "2 ou 8 dígitos" reads better than "2 dígitos ou 8 dígitos" when every part is a fixed count.
  const fixed = parts.map((p) => /^\\d\{(\d+)\}$/.exec(p)?.[1]);
  if (fixed.every((n) => n !== undefined)) return `ter ${fixed.slice(0, -1).join(', ')} ou ${fixed.at(-1)} dígitos`;
  return `ter ${described.join(' ou ')}`;
}

/** "ter 8 dígitos", "ser a sigla da UF…": completes "O campo 'x' deve …"; undefined for an unknown pattern. */
export function describePattern(pattern: RegExp | string): string | undefined {
  const source = pattern instanceof RegExp ? pattern.source : pattern;
  return NAMED[source] ?? digitShape(source);
}

/** The stringPattern message of one pattern; an unknown one still never prints the expression. */
export function patternMessage(pattern: RegExp | string): string {
  const what = describePattern(pattern);
  return what ? `O campo '{field}' deve ${what}.` : "O campo '{field}' não está no formato esperado.";
}

/**
 * A copy of a fastest-validator schema where every string rule with a pattern and no
 * stringPattern message of its own carries the described one. Shorthands and non-object rules
 * are left as they are; RegExps and functions are kept by reference.
 */
export function withPatternMessages<T>(schema: T): T {
  if (!schema || typeof schema !== 'object') return schema;
  // fastest-validator reads a root schema as a map of props unless it says `$$root: true`.
  return ((schema as Record<string, unknown>).$$root === true ? describeRule(schema) : describeProps(schema as Record<string, unknown>)) as T;
}

function describeRule(rule: unknown): unknown {
  if (Array.isArray(rule)) return rule.map(describeRule);
  if (!rule || typeof rule !== 'object' || rule instanceof RegExp) return rule;
  const r = rule as Record<string, any>;
  const out: Record<string, any> = {};
  for (const [k, v] of Object.entries(r)) {
    if (k === 'props' && v && typeof v === 'object') out[k] = describeProps(v);
    else if (k === 'items' || k === 'rules' || k === 'value' || k === 'key') out[k] = describeRule(v);
    else out[k] = v;
  }
  if (r.type === 'string' && r.pattern !== undefined && !r.messages?.stringPattern) {
    out.messages = { ...(r.messages ?? {}), stringPattern: patternMessage(r.pattern) };
  }
  return out;
}

function describeProps(props: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(props)) out[k] = k.startsWith('$$') && k !== '$$root' ? v : describeRule(v);
  return out;
}
