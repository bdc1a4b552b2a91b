import { DomainError } from '../errors/index.js';
import type { JsonBoundsViolation } from './json-bounds.js';

/**
 * The 400 for a body outside the shape bounds: one line, whatever the body's size. The depth
 * refusal keeps the wording and details it had before the other bounds existed.
 */
export function jsonBoundsRefusal(v: JsonBoundsViolation): DomainError {
  switch (v.kind) {
    case 'depth':
      return new DomainError('BAD_REQUEST', { profundidadeMaxima: v.limit }, `Corpo da requisição aninhado além de ${v.limit} níveis.`);
    case 'keys':
      return new DomainError('BAD_REQUEST', { chavesMaximasPorObjeto: v.limit, objeto: v.caminho }, `Objeto ${v.caminho ? `'${v.caminho}'` : 'raiz'} do corpo com mais de ${v.limit} chaves.`);
    case 'nodes':
      return new DomainError('BAD_REQUEST', { valoresMaximos: v.limit }, `Corpo da requisição com mais de ${v.limit} valores.`);
  }
}
