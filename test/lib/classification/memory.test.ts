import test from 'ava';
import { confirmClass, invalidateIfNotCandidate, isPending, recordMulticlassRefusal, recordSentClass, reusableClass } from '../../../lib/classification/memory.js';
import type { ProductClass } from '../../../lib/classification/types.js';

const AT = new Date('2026-11-25T15:00:00Z');
const sent = (cClassTrib: string) => ({ codigo: 'SKU-1', ncm: '10063021', cClassTrib });
const confirmed: ProductClass = confirmClass('SKU-1', '10063021', '200003', false);

test('rule 1: only a sent class is ever recorded as informado (resolution reuses without writing)', (t) => {
  t.deepEqual(recordSentClass(undefined, sent('000001'), AT), { codigo: 'SKU-1', ncm: '10063021', cClassTrib: '000001', origem: 'informado', motivo: null, cClassTribAnterior: null, deslocouEm: null });
  t.is(reusableClass(confirmed), '200003');
  t.is(reusableClass(recordMulticlassRefusal(undefined, 'SKU-1', '10063021')), null, 'a pending record is never reused');
});

test('rule 2: a sent class over a confirmed one is informado, keeps the confirmed as cClassTribAnterior with deslocouEm and is pending', (t) => {
  const next = recordSentClass(confirmed, sent('000001'), AT);
  t.deepEqual(next, { codigo: 'SKU-1', ncm: '10063021', cClassTrib: '000001', origem: 'informado', motivo: 'deslocou_confirmada', cClassTribAnterior: '200003', deslocouEm: AT.toISOString() });
  t.true(isPending(next));
  const contador = confirmClass('SKU-1', '10063021', '200003', true);
  t.like(recordSentClass(contador, sent('000001'), AT), { origem: 'informado', motivo: 'deslocou_confirmada', cClassTribAnterior: '200003' });
  // Another class later keeps the marker and the displaced confirmed class until someone confirms.
  t.like(recordSentClass(next, sent('200003'), new Date('2026-11-26T00:00:00Z')), { cClassTrib: '200003', motivo: 'deslocou_confirmada', cClassTribAnterior: '200003', deslocouEm: AT.toISOString() });
});

test('rule 3: sending the class already confirmado or contador leaves the record as it is', (t) => {
  t.is(recordSentClass(confirmed, sent('200003'), AT), confirmed);
  const contador = confirmClass('SKU-1', '10063021', '200003', true);
  t.is(recordSentClass(contador, sent('200003'), AT), contador);
});

test('rule 4: confirming clears the marker and the pending state; an accountant confirms as contador', (t) => {
  const displaced = recordSentClass(confirmed, sent('000001'), AT);
  const again = confirmClass('SKU-1', '10063021', '200003', false);
  t.deepEqual(again, { codigo: 'SKU-1', ncm: '10063021', cClassTrib: '200003', origem: 'confirmado', motivo: null, cClassTribAnterior: null, deslocouEm: null });
  t.true(isPending(displaced));
  t.false(isPending(again));
  t.is(confirmClass('SKU-1', '10063021', '200003', true).origem, 'contador');
});

test('rule 5: a sent class over an unconfirmed one gives no warning', (t) => {
  const informado = recordSentClass(undefined, sent('000001'), AT);
  const next = recordSentClass(informado, sent('200003'), AT);
  t.like(next, { cClassTrib: '200003', origem: 'informado', motivo: null, cClassTribAnterior: null, deslocouEm: null });
  t.false(isPending(next));
  t.is(recordSentClass(next, sent('200003'), AT), next, 'the same class again changes nothing');
});

test('a multi-class refusal makes the item pendente; a sent class then settles it', (t) => {
  const pending = recordMulticlassRefusal(undefined, 'SKU-1', '10063021');
  t.deepEqual(pending, { codigo: 'SKU-1', ncm: '10063021', cClassTrib: null, origem: 'pendente', motivo: 'multiclasse', cClassTribAnterior: null, deslocouEm: null });
  t.is(recordMulticlassRefusal(pending, 'SKU-1', '10063021'), pending);
  t.like(recordSentClass(pending, sent('200003'), AT), { origem: 'informado', motivo: null, cClassTrib: '200003' });
  // A class stored for this NCM (refused only because the model does not admit it) is kept.
  t.is(recordMulticlassRefusal(confirmed, 'SKU-1', '10063021'), confirmed);
  const informado = recordSentClass(undefined, sent('000001'), AT);
  t.is(recordMulticlassRefusal(informado, 'SKU-1', '10063021'), informado);
  // Stored for another NCM (the product was reclassified): pending, with the old class shown.
  t.like(recordMulticlassRefusal(confirmed, 'SKU-1', '02071100'), { origem: 'pendente', motivo: 'multiclasse', ncm: '02071100', cClassTribAnterior: '200003' });
});

test('a new table version turns a stored class that left the NCM\'s candidates pendente (candidatas_alteradas)', (t) => {
  t.is(invalidateIfNotCandidate(confirmed, new Set(['000001', '200003'])), confirmed);
  t.deepEqual(invalidateIfNotCandidate(confirmed, new Set(['000001'])), { codigo: 'SKU-1', ncm: '10063021', cClassTrib: null, origem: 'pendente', motivo: 'candidatas_alteradas', cClassTribAnterior: '200003', deslocouEm: null });
  const pending = recordMulticlassRefusal(undefined, 'SKU-1', '10063021');
  t.is(invalidateIfNotCandidate(pending, new Set()), pending);
});
