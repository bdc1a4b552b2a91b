import test from 'ava';
import { modulo11 } from '../../../../lib/nfe/access-key.js';
import { checkNfe } from '../../../../lib/nfe/check.js';
import { checkNotSelfReference, checkReferenciadas } from '../../../../lib/nfe/rules/referenciadas.js';
import { aValidNfeBody, anAccessKey, anIssuer } from '../../../support/nfe-factories.js';
import { throwsCode } from '../../../support/domain-errors.js';

/** Replaces characters of a valid key and recomputes the check digit, so only that part is wrong. */
function alter(start: number, text: string): string {
  const key = anAccessKey();
  const body = key.slice(0, start) + text + key.slice(start + text.length, 43);
  return body + String(modulo11(body));
}
const refs = (...keys: string[]) => keys.map((chaveAcesso) => ({ chaveAcesso }));

const cases: [string, string, string][] = [
  ['a key that is not 44 digits', anAccessKey().slice(0, 43), 'chave deve ter 44 dígitos'],
  ['a key with letters outside the CNPJ', `X${anAccessKey().slice(1)}`, 'chave deve ter 44 dígitos'],
  ['an unknown UF code', alter(0, '99'), 'código de UF inexistente'],
  ['month 13', alter(4, '13'), 'mês fora de 01-12'],
  ['month 00', alter(4, '00'), 'mês fora de 01-12'],
  ['model 57', alter(20, '57'), 'modelo deve ser 55, 65 ou 59'],
  ['document number zero', alter(25, '000000000'), 'número do documento zero'],
  ['a wrong check digit', anAccessKey().slice(0, 43) + String((Number(anAccessKey()[43]) + 1) % 10), 'dígito verificador (módulo 11) inválido'],
];

for (const [name, key, motivo] of cases) {
  test(`checkReferenciadas refuses ${name} (REFERENCIADA_INVALIDA)`, (t) => {
    const err = throwsCode(t, () => checkReferenciadas(refs(anAccessKey({ numero: 7 }), key), 1), 'REFERENCIADA_INVALIDA');
    t.deepEqual(err.data, { indice: 1, campo: 'referenciadas[1].chaveAcesso', motivo });
  });
}

test('checkReferenciadas refuses a repeated key', (t) => {
  const err = throwsCode(t, () => checkReferenciadas(refs(anAccessKey(), anAccessKey({ numero: 2 }), anAccessKey()), 1), 'REFERENCIADA_INVALIDA');
  t.deepEqual(err.data, { indice: 2, campo: 'referenciadas[2].chaveAcesso', motivo: 'chave repetida (igual a referenciadas[0])' });
});

test('checkReferenciadas refuses more than 500 entries and accepts exactly 500', (t) => {
  const keys = Array.from({ length: 501 }, (_, i) => anAccessKey({ numero: i + 1 }));
  const err = throwsCode(t, () => checkReferenciadas(refs(...keys), 1), 'REFERENCIADA_INVALIDA');
  t.like(err.data, { recebidas: 501 });
  t.is(checkReferenciadas(refs(...keys.slice(0, 500)), 1).length, 500);
});

test('checkReferenciadas refuses finNFe 2 with more than one reference', (t) => {
  const err = throwsCode(t, () => checkReferenciadas(refs(anAccessKey({ numero: 1 }), anAccessKey({ numero: 2 })), 2), 'REFERENCIADA_INVALIDA');
  t.like(err.data, { recebidas: 2 });
});

test('checkNotSelfReference refuses the note own key', (t) => {
  const own = anAccessKey({ numero: 99 });
  const err = throwsCode(t, () => checkNotSelfReference([anAccessKey(), own], own), 'REFERENCIADA_INVALIDA');
  t.deepEqual(err.data, { indice: 1, campo: 'referenciadas[1].chaveAcesso', motivo: 'a nota não pode referenciar a própria chave' });
  t.notThrows(() => checkNotSelfReference([anAccessKey()], own));
});

test('checkReferenciadas accepts NF-e, NFC-e and CF-e SAT keys, months 01 and 12 and an alphanumeric CNPJ', (t) => {
  const keys = [anAccessKey(), anAccessKey({ model: '65' }), anAccessKey({ model: '59' }), anAccessKey({ aamm: '2412' }), anAccessKey({ aamm: '2401' }), alter(6, '12ABC34501DE35')];
  t.deepEqual(checkReferenciadas(refs(...keys), 1), keys);
  t.notThrows(() => checkNfe(aValidNfeBody({ referenciadas: refs(...keys) }), anIssuer()));
});
