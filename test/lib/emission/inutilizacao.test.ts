import test from 'ava';
import { checkNumberFree, checkRange, claimRange, inutilizacaoView, skipReserved, MAX_RANGE, type InutilizacaoRecord } from '../../../lib/emission/inutilizacao.js';
import { throwsCode } from '../../support/domain-errors.js';

const now = new Date('2026-11-22T18:00:00Z');
const aRange = (over: Partial<InutilizacaoRecord> = {}): InutilizacaoRecord => ({
  id: 'r1', partnerId: 'p1', issuerId: 'i1', model: '55', series: 1, environment: 2, start: 10, end: 20, justificativa: 'Numeracao pulada por falha do sistema',
  status: 'HOMOLOGATED', protocol: '135260000000001', cStat: 102, xMotivo: 'Inutilização de número homologado', homologatedAt: now, sendingUntil: null, lastOutcome: null, attempts: 1,
  createdAt: now, updatedAt: now, hasXml: true, ...over,
});

test('checkRange passes a single number and exactly 10000 numbers', (t) => {
  t.notThrows(() => checkRange(5, 5));
  t.notThrows(() => checkRange(1, MAX_RANGE));
});

test('checkRange refuses numeroFinal below numeroInicial with FAIXA_INUTILIZACAO_INVERTIDA', (t) => {
  t.deepEqual(throwsCode(t, () => checkRange(10, 9), 'FAIXA_INUTILIZACAO_INVERTIDA').data, { numeroInicial: 10, numeroFinal: 9 });
});

test('checkRange refuses 10001 numbers with FAIXA_INUTILIZACAO_EXCEDIDA', (t) => {
  t.deepEqual(throwsCode(t, () => checkRange(1, MAX_RANGE + 1), 'FAIXA_INUTILIZACAO_EXCEDIDA').data, { numeroInicial: 1, numeroFinal: 10_001, quantidade: 10_001, maximo: 10_000 });
});

test('claimRange accepts a gap, numbers ahead and numbers of REJECTED notes', (t) => {
  t.deepEqual(claimRange(3, 4, [], [], now), { kind: 'new' });
  t.deepEqual(claimRange(3, 4, [{ number: 3, status: 'REJECTED' }], [aRange({ start: 5, end: 9, status: 'REJECTED' }), aRange({ start: 1, end: 4, status: 'REJECTED' })], now), { kind: 'new' });
});

test('claimRange refuses a number held by a document in any other state with FAIXA_CONTEM_NUMERO_UTILIZADO', (t) => {
  for (const status of ['AUTHORIZED', 'CANCELADA', 'DENEGADA', 'CREATED', 'TRANSMITTING', 'ERROR', 'CONTINGENCIA_PENDENTE'] as const) {
    const err = throwsCode(t, () => claimRange(1, 10, [{ number: 7, status }, { number: 2, status: 'REJECTED' }], [], now), 'FAIXA_CONTEM_NUMERO_UTILIZADO');
    t.deepEqual(err.data, { numeros: [7], quantidade: 1 });
  }
});

test('claimRange refuses an overlap with a pending or homologated range with FAIXA_JA_INUTILIZADA', (t) => {
  const err = throwsCode(t, () => claimRange(15, 25, [], [aRange()], now), 'FAIXA_JA_INUTILIZADA');
  t.deepEqual(err.data, { faixas: [{ id: 'r1', numeroInicial: 10, numeroFinal: 20, status: 'HOMOLOGATED' }] });
  throwsCode(t, () => claimRange(20, 20, [], [aRange({ status: 'PENDING' })], now), 'FAIXA_JA_INUTILIZADA');
});

test('claimRange answers the same homologated range again and resumes the same pending one', (t) => {
  const done = aRange();
  t.deepEqual(claimRange(10, 20, [], [done], now), { kind: 'done', range: done });
  const pending = aRange({ status: 'PENDING', lastOutcome: 'unknown' });
  t.deepEqual(claimRange(10, 20, [], [pending], now), { kind: 'resume', range: pending });
  throwsCode(t, () => claimRange(10, 20, [], [{ ...pending, sendingUntil: new Date(now.getTime() + 1) }], now), 'EVENTO_EM_TRANSMISSAO');
});

test('skipReserved jumps over ranges that hold numbers, chained, and ignores rejected ones', (t) => {
  const ranges = [aRange({ start: 3, end: 4 }), aRange({ start: 5, end: 8, status: 'PENDING' }), aRange({ start: 9, end: 9, status: 'REJECTED' })];
  t.is(skipReserved(3, ranges), 9);
  t.is(skipReserved(2, ranges), 2);
  t.is(skipReserved(9, ranges), 9);
});

test('checkNumberFree refuses a passthrough numero inside a range with NUMERO_INUTILIZADO and passes one outside', (t) => {
  t.notThrows(() => checkNumberFree(21, 1, [aRange()]));
  t.notThrows(() => checkNumberFree(15, 1, [aRange({ status: 'REJECTED' })]));
  const err = throwsCode(t, () => checkNumberFree(15, 1, [aRange()]), 'NUMERO_INUTILIZADO');
  t.deepEqual(err.data, { numero: 15, serie: 1, inutilizacaoId: 'r1', numeroInicial: 10, numeroFinal: 20 });
  t.is(err.code, 409);
});

test('inutilizacaoView uses the public names and links the XML by model', (t) => {
  t.like(inutilizacaoView(aRange({ model: '65' })), { serie: 1, numeroInicial: 10, numeroFinal: 20, status: 'HOMOLOGATED', protocolo: '135260000000001', links: { xml: '/v1/nfce/inutilizacao/r1/xml' } });
});
