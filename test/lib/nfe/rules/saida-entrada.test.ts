import test from 'ava';
import { checkNfe } from '../../../../lib/nfe/check.js';
import { toDhSaiEnt } from '../../../../lib/nfe/rules/saida-entrada.js';
import { validateNfeBody } from '../../../../lib/nfe/validate.js';
import { DomainError } from '../../../../lib/errors/index.js';
import { aValidNfeBody, anIssuer } from '../../../support/nfe-factories.js';

/** lib/nfe/rules/saida-entrada.ts: dataSaidaEntrada → dhSaiEnt in Brasília time. */
test('toDhSaiEnt keeps a Brasília time and converts other offsets and Z to −03:00', (t) => {
  t.is(toDhSaiEnt('2026-11-25T14:30:00-03:00'), '2026-11-25T14:30:00-03:00');
  t.is(toDhSaiEnt('2026-11-25T17:30:00Z'), '2026-11-25T14:30:00-03:00');
  t.is(toDhSaiEnt('2026-11-26T01:30:00+09:00'), '2026-11-25T13:30:00-03:00');
  t.is(toDhSaiEnt('2026-12-31T23:30:00-05:00'), '2027-01-01T01:30:00-03:00');
});

test('toDhSaiEnt refuses dates that do not exist, hour 24, offsets beyond ±14:00 and years outside 20xx', (t) => {
  for (const value of ['2026-02-30T10:00:00-03:00', '2026-11-25T24:00:00-03:00', '2026-11-25T10:00:00+15:00', '1999-12-31T10:00:00-03:00', '2026-11-25T10:00-03:00', '2026-11-25 10:00:00-03:00']) {
    t.is(toDhSaiEnt(value), undefined, value);
  }
});

test('validateNfeBody answers 400 naming dataSaidaEntrada for a malformed or impossible value', (t) => {
  const malformed = t.throws(() => validateNfeBody(aValidNfeBody({ dataSaidaEntrada: '25/11/2026 14:30' })), { instanceOf: DomainError }) as DomainError;
  t.deepEqual(malformed.data, { errors: [{ field: 'dataSaidaEntrada', message: "O campo 'dataSaidaEntrada' deve ser data e hora ISO 8601 com fuso, ex.: 2026-11-25T14:30:00-03:00." }] });
  const impossible = t.throws(() => validateNfeBody(aValidNfeBody({ dataSaidaEntrada: '2026-02-30T10:00:00-03:00' })), { instanceOf: DomainError }) as DomainError;
  t.deepEqual(impossible.data, { errors: [{ field: 'dataSaidaEntrada', message: "O campo 'dataSaidaEntrada' não é uma data e hora existente entre 2000 e 2099 (fuso até ±14:00)." }] });
});

test('checkNfe carries dataSaidaEntrada as dhSaiEnt in Brasília time, and nothing when it is absent', (t) => {
  t.is(checkNfe(validateNfeBody(aValidNfeBody({ dataSaidaEntrada: '2026-11-25T17:30:00Z' })), anIssuer()).dhSaiEnt, '2026-11-25T14:30:00-03:00');
  t.false('dhSaiEnt' in checkNfe(validateNfeBody(aValidNfeBody()), anIssuer()));
});
