import { DomainError } from '../../errors/index.js';
import { parseAccessKey, type AccessKeyProblem } from '../access-key.js';
import type { Referenciada } from '../types.js';

export const MAX_REFERENCIADAS = 500;

const MOTIVO: Readonly<Record<AccessKeyProblem, string>> = {
  formato: 'chave deve ter 44 dígitos',
  uf: 'código de UF inexistente',
  mes: 'mês fora de 01-12',
  modelo: 'modelo deve ser 55, 65 ou 59',
  numero: 'número do documento zero',
  digito: 'dígito verificador (módulo 11) inválido',
};

/**
 * API.md, emission rule 7 (REFERENCIADA_INVALIDA): key format, UF code, month, model, zero
 * number, modulo-11 digit (lib/nfe/access-key.ts), repeated key, more than 500 entries, and
 * finNFe 2 with more than one reference. The tenth case, a reference to the note's own key,
 * needs the key allocated at numbering: see checkNotSelfReference.
 */
export function checkReferenciadas(referenciadas: readonly Referenciada[] | undefined, finNFe: number): string[] {
  const refs = referenciadas ?? [];
  if (refs.length > MAX_REFERENCIADAS) {
    throw new DomainError('REFERENCIADA_INVALIDA', { campo: 'referenciadas', motivo: `máximo de ${MAX_REFERENCIADAS} referências`, recebidas: refs.length });
  }
  if (finNFe === 2 && refs.length > 1) {
    throw new DomainError('REFERENCIADA_INVALIDA', { campo: 'referenciadas', motivo: 'nota complementar (finNFe 2) referencia um único documento', recebidas: refs.length });
  }
  const seen = new Map<string, number>();
  refs.forEach(({ chaveAcesso }, index) => {
    const parsed = parseAccessKey(chaveAcesso);
    if (!parsed.ok) {
      throw new DomainError('REFERENCIADA_INVALIDA', { indice: index, campo: `referenciadas[${index}].chaveAcesso`, motivo: MOTIVO[parsed.problem] });
    }
    const first = seen.get(chaveAcesso);
    if (first !== undefined) {
      throw new DomainError('REFERENCIADA_INVALIDA', { indice: index, campo: `referenciadas[${index}].chaveAcesso`, motivo: `chave repetida (igual a referenciadas[${first}])` });
    }
    seen.set(chaveAcesso, index);
  });
  return refs.map((r) => r.chaveAcesso);
}

/**
 * The note may not reference itself. Its key exists only once a number is allocated, so the
 * emission service calls this right after building the key (and before transmission); checkNfe
 * also runs it when given `ownAccessKey` (e.g. a passthrough `numero`).
 */
export function checkNotSelfReference(referenciadas: readonly string[], ownAccessKey: string): void {
  const index = referenciadas.indexOf(ownAccessKey);
  if (index >= 0) {
    throw new DomainError('REFERENCIADA_INVALIDA', { indice: index, campo: `referenciadas[${index}].chaveAcesso`, motivo: 'a nota não pode referenciar a própria chave' });
  }
}
