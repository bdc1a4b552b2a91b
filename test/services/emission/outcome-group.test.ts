import test from 'ava';
import { randomUUID } from 'node:crypto';
import { startStack, type Stack } from '../../support/stack.js';
import type { DocumentStore } from '../../../services/emission/store.js';
import type { NfseStore, NewNfse } from '../../../services/emission/nfse/store.js';
import type { DocumentRecord } from '../../../lib/emission/document.js';
import type { NfseRecord } from '../../../lib/emission/nfse/document.js';
import type { Transition } from '../../../lib/emission/state.js';
import type { NfseTransition } from '../../../lib/emission/nfse/state.js';
import { billingSlot } from '../../../services/emission/transition-sql.js';

/**
 * The terminal answers of a node's own transmissions that arrive while earlier ones are being
 * written go in one statement (services/emission/outcome-group.ts, issue 18), each with the
 * guarantees it had alone: its guard, history row, billing count and outbox event, none of them
 * for a note whose guard did not hold, and a note that fails the statement does not fail the others.
 */
let stack: Stack;
let store: DocumentStore;
let nfse: NfseStore;
const grouped: string[] = [];
const groupedDps: string[] = [];

test.before(async () => {
  stack = await startStack({ env: { WEBHOOK_POLL_MS: '0' } });
  ({ store, nfse } = stack.nodes[0]!.getLocalService('v1.emission') as unknown as { store: DocumentStore; nfse: NfseStore });
  stack.knex.on('query', (q: { sql: string }) => {
    if (/^with input \(id, s_status[\s\S]*update "emission"\."documents"/.test(q.sql)) grouped.push(q.sql);
    if (/^with input \(id, s_status[\s\S]*update "emission"\."nfse_documents"/.test(q.sql)) groupedDps.push(q.sql);
  });
});
test.after.always(async () => { await stack?.stop(); });

let series = 0;
/** `n` notes of a series of their own, stored TRANSMITTING as the emission stores them. */
async function transmitting(n: number, over: { partnerId?: string; keyKind?: 'live' | 'test' } = {}): Promise<DocumentRecord[]> {
  const doc = {
    issuerId: randomUUID(), cnpj: '11222333000181', model: '55' as const, series: ++series, environment: 2 as const, partnerId: over.partnerId ?? `partner-${randomUUID()}`,
    uf: 'SP', keyKind: over.keyKind ?? 'live', amountCents: 1000n, requestBody: { nota: true }, idempotencyKey: null, idempotencyFingerprint: null,
    tpEmis: 1, emittedAt: new Date('2026-11-26T10:00:00-03:00'),
  };
  const built = async (number: number) => ({
    cnf: String(10_000_000 + number),
    built: { xml: `<NFe n="${number}"/>`, accessKey: `35261111222333000181550${String(series).padStart(2, '0')}${String(number).padStart(9, '0')}1000000001`.slice(0, 44), digestValue: `d${number}` },
  });
  await store.createNumbered(doc, built); // the series' sequence row
  const settled = await store.createNumberedGroup(Array.from({ length: n }, () => ({ doc, build: built })));
  return settled.map((s) => (s as PromiseFulfilledResult<DocumentRecord>).value);
}

const AUTHORIZED: Transition = { to: 'AUTHORIZED', motivo: null, event: 'invoice.authorized' };
const REJECTED: Transition = { to: 'REJECTED', motivo: '539 - Rejeição: Duplicidade de NF-e', event: 'invoice.rejected' };
const authorizedDetails = (doc: DocumentRecord) => ({ protocol: `1352600000${doc.number}`.padEnd(15, '0'), authorizedAt: new Date('2026-11-26T13:00:01Z'), authorizedXml: `<nfeProc n="${doc.number}"/>` });
const rejectedDetails = { erros: [{ codigo: '539', descricao: 'Rejeição: Duplicidade de NF-e' }] };

/** Every note's answer at once, as the answers of notes in flight arrive: the first two are written alone, the rest wait and go together. */
const answerAll = (answers: Array<{ doc: DocumentRecord; tr: Transition; details: object }>) =>
  Promise.allSettled(answers.map(({ doc, tr, details }) => store.applyOutcome(doc.id, doc.transmissions, `authorization:${tr.to === 'AUTHORIZED' ? 'authorized' : 'rejected'}`, tr, details, doc)));

const rowOf = (id: string) => stack.knex('emission.documents').where({ id }).first('status', 'protocol', 'authorized_xml', 'erros', 'motivo', 'transmitting_until', 'next_check_at', 'transmissions');
const historyOf = (id: string) => stack.knex('emission.document_history').where({ document_id: id }).orderBy('id').select('from_status', 'to_status', 'trigger', 'motivo', 'detail');
const eventsOf = async (partnerId: string) => (await stack.knex('emission.outbox').whereRaw(`payload->>'partnerId' = ?`, [partnerId]).select('payload'))
  .map((r: any) => [r.payload.type, r.payload.data.invoiceId ?? r.payload.data.nfseId]).sort();
/** A document's counters as the store's usage answers them (its slots summed), in the fields these tests compare. */
const countersOf = async (doc: { partnerId: string; createdAt: Date }, by: 'key_kind' | 'model' = 'key_kind') =>
  (await store.usage(doc.partnerId, doc.createdAt.toISOString().slice(0, 7)))
    .map((r) => ({ [by]: by === 'model' ? r.model : r.keyKind, billable: r.billable, count: r.count }));

test.serial('answers that arrive together are written in one statement, each with its row, history, billing count and event', async (t) => {
  const docs = await transmitting(10);
  const partnerId = docs[0]!.partnerId;
  grouped.length = 0;
  const answers = docs.map((doc, i) => (i % 3 === 2 ? { doc, tr: REJECTED, details: rejectedDetails } : { doc, tr: AUTHORIZED, details: authorizedDetails(doc) }));
  const settled = await answerAll(answers);
  t.deepEqual(settled.map((s) => s.status === 'fulfilled' && s.value.status), answers.map((a) => a.tr.to));
  t.is(grouped.length, 3, 'two written alone as they came, the eight that waited in one statement');
  for (const { doc, tr, details } of answers) {
    const row = await rowOf(doc.id);
    t.deepEqual(row, {
      status: tr.to, transmissions: 1, transmitting_until: null, next_check_at: null, motivo: tr.motivo,
      protocol: 'protocol' in details ? details.protocol : null,
      authorized_xml: 'authorizedXml' in details ? details.authorizedXml : null,
      erros: 'erros' in details ? details.erros : null,
    });
    t.deepEqual((await historyOf(doc.id)).slice(2), [{
      from_status: 'TRANSMITTING', to_status: tr.to, trigger: `authorization:${tr.to === 'AUTHORIZED' ? 'authorized' : 'rejected'}`, motivo: tr.motivo,
      detail: 'erros' in details ? { erros: details.erros } : null,
    }]);
  }
  t.deepEqual(await countersOf(docs[0]!), [{ key_kind: 'live', billable: true, count: 7 }], 'the seven authorized counted once each');
  t.deepEqual(await eventsOf(partnerId), answers.map((a) => [a.tr.event, a.doc.id]).sort());
});

test.serial('a note whose guard does not hold answers from the locked row; the others of its statement are written, nothing of it is', async (t) => {
  const docs = await transmitting(5);
  const partnerId = docs[0]!.partnerId;
  const [, , stale, settledElsewhere] = docs;
  // A newer attempt of one, and another already answered through another node.
  await stack.knex('emission.documents').where({ id: stale!.id }).update({ transmissions: 2 });
  await stack.knex('emission.documents').where({ id: settledElsewhere!.id }).update({ status: 'REJECTED', transmitting_until: null });
  grouped.length = 0;
  const settled = await answerAll(docs.map((doc) => ({ doc, tr: AUTHORIZED, details: authorizedDetails(doc) })));
  t.is(grouped.length, 3, 'two alone, then the three that waited together');
  t.deepEqual(settled.map((s) => s.status === 'fulfilled' && s.value.status), ['AUTHORIZED', 'AUTHORIZED', 'TRANSMITTING', 'REJECTED', 'AUTHORIZED']);
  t.deepEqual((await rowOf(stale!.id)).status, 'TRANSMITTING');
  t.deepEqual((await historyOf(stale!.id)).slice(2), [{
    from_status: 'TRANSMITTING', to_status: 'TRANSMITTING', trigger: 'authorization:authorized', motivo: 'Resposta da transmissão 1 descartada: a transmissão 2 é a vigente.',
    detail: { attempt: 1, currentAttempt: 2, outcome: 'AUTHORIZED', protocol: authorizedDetails(stale!).protocol },
  }]);
  t.is((await historyOf(settledElsewhere!.id)).length, 2, 'no history row for a note another node settled');
  t.deepEqual(await countersOf(docs[0]!), [{ key_kind: 'live', billable: true, count: 3 }]);
  t.deepEqual(await eventsOf(partnerId), [docs[0]!, docs[1]!, docs[4]!].map((d) => ['invoice.authorized', d.id]).sort());
});

test.serial('a note that fails the statement fails alone: the others that waited with it are written one by one', async (t) => {
  const docs = await transmitting(5);
  const partnerId = docs[0]!.partnerId;
  // A protocol longer than the column holds (20): the statement that carries it fails.
  const broken = { ...authorizedDetails(docs[3]!), protocol: '1'.repeat(21) };
  grouped.length = 0;
  const settled = await answerAll(docs.map((doc, i) => ({ doc, tr: AUTHORIZED, details: i === 3 ? broken : authorizedDetails(doc) })));
  t.deepEqual(settled.map((s) => s.status), ['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
  t.regex(String((settled[3] as PromiseRejectedResult).reason), /value too long for type character varying\(20\)/);
  t.is(grouped.length, 2 + 1 + 3, 'two alone, the three together (failed), then each of them alone');
  t.deepEqual(await Promise.all(docs.map(async (d) => (await rowOf(d.id)).status)), ['AUTHORIZED', 'AUTHORIZED', 'AUTHORIZED', 'TRANSMITTING', 'AUTHORIZED']);
  t.deepEqual(await countersOf(docs[0]!), [{ key_kind: 'live', billable: true, count: 4 }]);
  t.is((await eventsOf(partnerId)).length, 4);
});

test.serial('test-key notes are counted apart and not billed, in the same statement as billed ones of the partner', async (t) => {
  const partnerId = `partner-${randomUUID()}`;
  const live = await transmitting(3, { partnerId });
  const sandbox = await transmitting(3, { partnerId, keyKind: 'test' });
  grouped.length = 0;
  const docs = [live[0]!, sandbox[0]!, live[1]!, sandbox[1]!, live[2]!, sandbox[2]!];
  const settled = await answerAll(docs.map((doc) => ({ doc, tr: AUTHORIZED, details: authorizedDetails(doc) })));
  t.true(settled.every((s) => s.status === 'fulfilled' && s.value.status === 'AUTHORIZED'));
  t.is(grouped.length, 3);
  t.deepEqual(await countersOf(live[0]!), [{ key_kind: 'live', billable: true, count: 3 }, { key_kind: 'test', billable: false, count: 3 }]);
});

test.serial('a partner\'s counter is kept in slots: an authorization waits only for one counting in its own slot, and the usage sums them', async (t) => {
  const partnerId = `partner-${randomUUID()}`;
  const docs = await transmitting(12, { partnerId });
  const slotOf = (d: DocumentRecord) => billingSlot(d.id);
  const held = docs[0]!;
  const free = docs.find((d) => slotOf(d) !== slotOf(held));
  if (!free) return t.fail('twelve random ids all in one slot');
  // Another statement counting for the partner in `held`'s slot, not committed yet: its row is locked.
  const other = await stack.knex.transaction();
  try {
    await other.raw(`insert into emission.billing_counters (partner_id, period, model, environment, key_kind, slot, billable, count)
      values (?, ?, '55', 2, 'live', ?, true, 1)`, [partnerId, held.createdAt.toISOString().slice(0, 7), slotOf(held)]);
    const answer = (doc: DocumentRecord) => store.applyOutcome(doc.id, doc.transmissions, 'authorization:authorized', AUTHORIZED, authorizedDetails(doc), doc);
    t.is((await answer(free)).status, 'AUTHORIZED', 'another slot: written while the other statement holds its row');
    const waiting = answer(held);
    const early = await Promise.race([waiting.then(() => 'written'), new Promise((r) => setTimeout(() => r('waiting'), 500))]);
    t.is(early, 'waiting', 'the same slot: it waits for the row');
    await other.commit();
    t.is((await waiting).status, 'AUTHORIZED');
  } finally {
    if (!other.isCompleted()) await other.rollback();
  }
  const rows = await stack.knex('emission.billing_counters').where({ partner_id: partnerId }).orderBy('slot').select('slot', 'count');
  t.deepEqual(rows, [{ slot: slotOf(held), count: 2 }, { slot: slotOf(free), count: 1 }].sort((a, b) => a.slot - b.slot));
  t.deepEqual(await store.usage(partnerId, held.createdAt.toISOString().slice(0, 7)), [{ model: '55', environment: 2, keyKind: 'live', billable: true, count: 3 }]);
});

test.serial('the same note answered twice at once is written once: the second answer finds it settled', async (t) => {
  const [doc, other1, other2] = await transmitting(3);
  grouped.length = 0;
  const settled = await answerAll([other1!, other2!, doc!, doc!].map((d) => ({ doc: d, tr: AUTHORIZED, details: authorizedDetails(d) })));
  t.true(settled.every((s) => s.status === 'fulfilled' && s.value.status === 'AUTHORIZED'));
  t.is((await historyOf(doc!.id)).filter((h: any) => h.to_status === 'AUTHORIZED').length, 1);
  t.deepEqual(await countersOf(doc!), [{ key_kind: 'live', billable: true, count: 3 }]);
  t.is((await eventsOf(doc!.partnerId)).length, 3);
});

test.serial('the events written by a group are handed to the relay and published', async (t) => {
  const docs = await transmitting(6);
  await answerAll(docs.map((doc) => ({ doc, tr: AUTHORIZED, details: authorizedDetails(doc) })));
  const pending = () => stack.knex('emission.outbox').whereRaw(`payload->>'partnerId' = ?`, [docs[0]!.partnerId]).whereNull('published_at').count({ n: '*' }).first();
  for (let i = 0; Number((await pending())!.n) > 0; i++) {
    if (i > 100) return t.fail('the group\'s events were never published');
    await new Promise((r) => setTimeout(r, 50));
  }
  t.pass();
});

/** `n` DPS of a série of their own in `codigoMunicipio`, stored TRANSMITTING as the emission stores them. */
async function transmittingDps(n: number, over: Partial<NewNfse>): Promise<NfseRecord[]> {
  const doc: NewNfse = {
    issuerId: randomUUID(), serie: 1, environment: 2, partnerId: `partner-${randomUUID()}`, keyKind: 'live', codigoMunicipio: '3550308', amountCents: 150000n,
    requestBody: { dps: true }, idempotencyKey: null, idempotencyFingerprint: null, emittedAt: new Date('2026-11-26T10:00:00-03:00'), avisos: [], ...over,
  };
  const built = async (nDps: number) => ({ xml: `<DPS n="${nDps}"/>`, idDps: `DPS${doc.codigoMunicipio}${String(nDps).padStart(35, '0')}` });
  const settled = await nfse.createNumberedGroup(Array.from({ length: n }, () => ({ doc, build: built })));
  return settled.map((s) => (s as PromiseFulfilledResult<NfseRecord>).value);
}

test.serial('DPS answers that arrive together are written in one statement: rows, history, NFSe counters, each municipality marked adhering once, events', async (t) => {
  const partnerId = `partner-${randomUUID()}`;
  // One municipality Sefin said was not adhering, one not known yet.
  await stack.knex('emission.nfse_municipalities').insert({ codigo_municipio: '4106902', environment: 2, adesao: 'nao_aderente', mensagem: 'E0037', updated_at: new Date('2026-11-01T00:00:00Z') });
  const curitiba = await transmittingDps(3, { partnerId, codigoMunicipio: '4106902' });
  const campinas = await transmittingDps(3, { partnerId, codigoMunicipio: '3509502' });
  const [stale] = campinas.splice(2, 1);
  await stack.knex('emission.nfse_documents').where({ id: stale!.id }).update({ transmissions: 2 });
  const AUTHORIZED_DPS: NfseTransition = { to: 'AUTHORIZED', motivo: null, event: 'invoice.authorized' };
  const REJECTED_DPS: NfseTransition = { to: 'REJECTED', motivo: 'E0014 - Conjunto de Série e Número já existe', event: 'invoice.rejected' };
  const authorized = (doc: NfseRecord) => ({ chaveAcesso: `3550308${doc.nDps}`.padEnd(50, '0'), numeroNfse: String(doc.nDps), nfseXml: `<NFSe n="${doc.nDps}"/>`, authorizedAt: new Date('2026-11-26T13:00:01Z') });
  const answers = [
    ...curitiba.map((doc, i) => (i === 1 ? { doc, tr: REJECTED_DPS, details: { erros: [{ codigo: 'E0014', descricao: 'Conjunto de Série e Número já existe' }] } } : { doc, tr: AUTHORIZED_DPS, details: authorized(doc) })),
    ...[...campinas, stale!].map((doc) => ({ doc, tr: AUTHORIZED_DPS, details: authorized(doc) })),
  ];
  groupedDps.length = 0;
  const settled = await Promise.allSettled(answers.map(({ doc, tr, details }) => nfse.applyOutcome(doc.id, doc.transmissions, `submit:${tr.to}`, tr, details, doc)));
  t.deepEqual(settled.map((r) => r.status === 'fulfilled' && r.value.status), ['AUTHORIZED', 'REJECTED', 'AUTHORIZED', 'AUTHORIZED', 'AUTHORIZED', 'TRANSMITTING']);
  t.is(groupedDps.length, 3, 'two alone, then the four that waited together');
  const rows = await stack.knex('emission.nfse_documents').whereIn('id', answers.map((a) => a.doc.id)).select('id', 'status', 'numero_nfse', 'nfse_xml', 'erros', 'transmitting_until');
  for (const { doc, tr, details } of answers.slice(0, 5)) {
    t.deepEqual(rows.find((r: any) => r.id === doc.id), {
      id: doc.id, status: tr.to, transmitting_until: null, numero_nfse: 'numeroNfse' in details ? details.numeroNfse : null,
      nfse_xml: 'nfseXml' in details ? details.nfseXml : null, erros: 'erros' in details ? details.erros : null,
    });
    t.deepEqual((await stack.knex('emission.nfse_history').where({ document_id: doc.id }).orderBy('id').select('from_status', 'to_status')).slice(-1), [{ from_status: 'TRANSMITTING', to_status: tr.to }]);
  }
  t.deepEqual(await countersOf(curitiba[0]!, 'model'), [{ model: 'NFSe', billable: true, count: 4 }]);
  t.deepEqual(await stack.knex('emission.nfse_municipalities').whereIn('codigo_municipio', ['4106902', '3509502']).orderBy('codigo_municipio').select('codigo_municipio', 'adesao', 'mensagem'), [
    { codigo_municipio: '3509502', adesao: 'aderente', mensagem: null },
    { codigo_municipio: '4106902', adesao: 'aderente', mensagem: null },
  ]);
  t.deepEqual(await eventsOf(partnerId), answers.slice(0, 5).map((a) => [a.tr.event, a.doc.id]).sort());
});
