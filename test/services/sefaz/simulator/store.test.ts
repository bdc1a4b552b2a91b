import test from 'ava';
import knexFactory, { type Knex } from 'knex';
import { createTestDatabase } from '../../../support/stack.js';
import { migrateSchema } from '../../../../services/shared/migrations.js';
import { migrations } from '../../../../migrations/simulator/index.js';
import { N_PROT, SimulatorStore, type NoteAuthorization, type NoteFields } from '../../../../services/sefaz/simulator/store.js';
import * as R from '../../../../lib/sefaz/simulator/responses.js';
import { NoteAuthorizations } from '../../../../services/sefaz/simulator/note-authorizations.js';

/**
 * SimulatorStore.authorizeNote (issue 18): an authorization in one statement that keeps what the
 * series lock protected (206 for a number an inutilização covers, 204/539 for a duplicate), also
 * when two connections race.
 */
let knex: Knex;
let drop: () => Promise<void>;
let store: SimulatorStore;
test.before(async () => {
  const db = await createTestDatabase();
  drop = db.drop;
  knex = knexFactory({ client: 'pg', connection: db.url, pool: { min: 0, max: 6 } });
  await migrateSchema(knex, 'simulator', migrations);
  store = new SimulatorStore(knex);
});
test.after.always(async () => { await knex?.destroy(); await drop?.(); });

const CNPJ = '11222333000181';
const at = new Date('2026-03-02T12:00:00Z');
let next = 1;
function aNote(o: Partial<NoteFields> = {}): NoteFields {
  const numero = o.numero ?? next++;
  return {
    access_key: `352603${CNPJ}550010000${String(numero).padStart(5, '0')}1${String(numero).padStart(8, '0')}0`.slice(0, 44),
    cnpj: CNPJ, model: '55', serie: 1, numero, tp_amb: 2, c_uf: '35', authorized_at: at, dh_emi: at, ...o,
  };
}
const drawn = (note: NoteFields, o: Partial<NoteAuthorization> = {}): NoteAuthorization => ({
  note, receipt: R.receiptFormat('35'), protocol: R.protocolFormat('SP', '35', at), prot: `<protNFe><nProt>${N_PROT}</nProt></protNFe>`, ...o,
});
const lastSequence = async () => BigInt((await knex.raw('select last_value from simulator.protocol_seq')).rows[0].last_value);

function countQueries(): { sql: string[]; stop(): void } {
  const sql: string[] = [];
  const on = (q: { sql: string }) => sql.push(q.sql);
  knex.on('query', on);
  return { sql, stop: () => knex.off('query', on) };
}

test.serial('authorizeNote is one statement that draws the receipt then the protocol, formatted as nRec and nProt are', async (t) => {
  const note = aNote();
  const queries = countQueries();
  const o = await store.authorizeNote(drawn(note, { saveReceipt: { c_uf: '35', tp_amb: 2 } }));
  queries.stop();
  t.is(queries.sql.length, 1);
  const seq = await lastSequence();
  const protocol = R.protocolNumber('SP', '35', at, seq);
  t.deepEqual(o, { outcome: 'inserted', receipt: R.receiptNumber('35', seq - 1n), protocol, prot: `<protNFe><nProt>${protocol}</nProt></protNFe>`, existing: null });
  t.like(await store.noteByKey(note.access_key), { status: 'authorized', protocol, receipt: o.receipt, prot_xml: o.prot });
  t.deepEqual(await store.receipt(o.receipt), { receipt: o.receipt, c_uf: '35', tp_amb: 2, prot_xml: o.prot, created_at: at });
});

test.serial('authorizeNote keeps given numbers, and names the note that holds the key (204) or the number (539)', async (t) => {
  const first = aNote();
  t.is((await store.authorizeNote(drawn(first, { receipt: '351000000000777', protocol: '135260000000778' }))).outcome, 'inserted');
  const again = await store.authorizeNote(drawn(first));
  t.like(again, { outcome: 'same-key', existing: { accessKey: first.access_key, receipt: '351000000000777' } });
  const sameNumber = await store.authorizeNote(drawn(aNote({ numero: first.numero, access_key: first.access_key.replace(/.$/, '9') })));
  t.like(sameNumber, { outcome: 'same-number', existing: { accessKey: first.access_key, receipt: '351000000000777' } });
  t.is(await store.receipt(again.receipt), undefined, 'a refused note writes no receipt');
});

test.serial('authorizeNote refuses a number an inutilização covers (206)', async (t) => {
  const note = aNote();
  await store.insertInutilizacao({ cnpj: CNPJ, model: '55', serie: 1, inicio: note.numero, fim: note.numero, tp_amb: 2, protocol: '135260000000001', created_at: at });
  t.like(await store.authorizeNote(drawn(note)), { outcome: 'inutilizado', existing: null });
  t.is(await store.noteByKey(note.access_key), undefined);
});

async function waitForAdvisoryWaiters(n: number): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const r = await knex.raw(`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and wait_event = 'advisory'`);
    if (r.rows[0].n >= n) return;
    await new Promise((res) => setTimeout(res, 10));
  }
  throw new Error(`never saw ${n} statement(s) waiting for the series lock`);
}

test.serial('an inutilização committed while the authorization waits for the series lock refuses it (206), though its statement began before', async (t) => {
  const note = aNote();
  let holding!: () => void;
  let release!: () => void;
  const held = new Promise<void>((r) => { holding = r; });
  const gate = new Promise<void>((r) => { release = r; });
  const inutilizacao = store.serialized(note, async (s) => {
    await s.insertInutilizacao({ cnpj: CNPJ, model: '55', serie: 1, inicio: note.numero, fim: note.numero, tp_amb: 2, protocol: '135260000000002', created_at: at });
    holding();
    await gate;
  });
  await held;
  const authorization = store.authorizeNote(drawn(note));
  await waitForAdvisoryWaiters(1);
  release();
  await inutilizacao;
  t.like(await authorization, { outcome: 'inutilizado' });
  t.is(await store.noteByKey(note.access_key), undefined);
});

test.serial('authorizations of one series do not wait for one another; an inutilização of the series waits for those in flight', async (t) => {
  const inFlight = aNote();
  const other = aNote();
  const trx = await knex.transaction();
  try {
    // An authorization of the series whose statement ran and whose transaction has not committed.
    t.is((await new SimulatorStore(trx).authorizeNote(drawn(inFlight))).outcome, 'inserted');
    const second = store.authorizeNote(drawn(other));
    const early = await Promise.race([second.then((o) => o.outcome), new Promise((r) => setTimeout(() => r('waiting'), 2_000))]);
    t.is(early, 'inserted', 'written while the other authorization holds the series lock (shared)');
    const range = { cnpj: CNPJ, model: '55', serie: 1, inicio: inFlight.numero, fim: inFlight.numero, tp_amb: 2 };
    const inutilizacao = store.serialized(range, async (s) => (await s.numbersUsed(range) ? 241 : 102));
    await waitForAdvisoryWaiters(1);
    await trx.commit();
    t.is(await inutilizacao, 241, 'it waited, then saw the note committed');
  } finally {
    if (!trx.isCompleted()) await trx.rollback();
  }
});

test.serial('two connections authorizing one number at once: one is authorized, the other names it (539); one key: 204', async (t) => {
  const a = aNote();
  const b = aNote({ numero: a.numero, access_key: a.access_key.replace(/.$/, '8') });
  const byNumber = await Promise.all([store.authorizeNote(drawn(a)), store.authorizeNote(drawn(b))]);
  t.deepEqual(byNumber.map((o) => o.outcome).sort(), ['inserted', 'same-number']);
  const winner = byNumber.find((o) => o.outcome === 'inserted')!;
  t.deepEqual(byNumber.find((o) => o.outcome === 'same-number')!.existing, { accessKey: winner === byNumber[0] ? a.access_key : b.access_key, receipt: winner.receipt });
  const c = aNote();
  const byKey = await Promise.all([store.authorizeNote(drawn(c)), store.authorizeNote(drawn(c))]);
  t.deepEqual(byKey.map((o) => o.outcome).sort(), ['inserted', 'same-key']);
  t.deepEqual(byKey.find((o) => o.outcome === 'same-key')!.existing, { accessKey: c.access_key, receipt: byKey.find((o) => o.outcome === 'inserted')!.receipt });
});

test('the NFS-e and events Sefin generates, and the events\' procEventoNFe, are compressed with lz4 (migration 073)', async (t) => {
  const { rows } = await knex.raw(`select c.relname || '.' || a.attname as col, a.attcompression as method from pg_attribute a join pg_class c on c.oid = a.attrelid
    join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'simulator' and a.attcompression <> '' order by 1`);
  t.deepEqual(rows, ['events.proc_xml', 'sefin_events.evento_xml', 'sefin_nfse.nfse_xml'].map((col) => ({ col, method: 'l' })));
});

test.serial('authorizeNotes writes several authorizations in one statement, each answered as if alone and in order: a later one of the same number is 539', async (t) => {
  const [a, b] = [aNote(), aNote()];
  const rival = aNote({ numero: a.numero, access_key: a.access_key.replace(/.$/, '8') });
  const inutilizado = aNote();
  await knex('simulator.inutilizacoes').insert({ cnpj: CNPJ, model: '55', serie: 1, inicio: inutilizado.numero, fim: inutilizado.numero, tp_amb: 2, protocol: '135260000000999', created_at: at });
  const queries = countQueries();
  const outcomes = await store.authorizeNotes([drawn(a), drawn(b, { saveReceipt: { c_uf: '35', tp_amb: 2 } }), drawn(rival), drawn(inutilizado)]);
  queries.stop();
  t.is(queries.sql.length, 1, 'one statement, one commit');
  t.deepEqual(outcomes.map((o) => o.outcome), ['inserted', 'inserted', 'same-number', 'inutilizado']);
  t.like(outcomes[2], { existing: { accessKey: a.access_key, receipt: outcomes[0]!.receipt } });
  for (const [i, note] of [a, b].entries()) {
    const o = outcomes[i]!;
    t.is(o.prot, `<protNFe><nProt>${o.protocol}</nProt></protNFe>`);
    t.like(await store.noteByKey(note.access_key), { status: 'authorized', protocol: o.protocol, receipt: o.receipt, prot_xml: o.prot });
  }
  t.like(await store.receipt(outcomes[1]!.receipt), { prot_xml: outcomes[1]!.prot }, 'the asynchronous one\'s receipt is written with it');
  t.is(await store.noteByKey(rival.access_key), undefined);
});

test.serial('authorizations that arrive while others are written go together: fewer statements than notes, each answered as if alone', async (t) => {
  const authorizations = new NoteAuthorizations(store);
  const notes = Array.from({ length: 12 }, () => aNote());
  const queries = countQueries();
  const outcomes = await Promise.all([...notes.map((n) => authorizations.authorize(drawn(n))), authorizations.authorize(drawn(notes[0]!))]);
  queries.stop();
  t.true(queries.sql.length < notes.length, `${queries.sql.length} statements for ${notes.length + 1} authorizations`);
  t.deepEqual(outcomes.map((o) => o.outcome), [...notes.map(() => 'inserted'), 'same-key']);
  t.is(new Set(outcomes.slice(0, -1).map((o) => o.protocol)).size, notes.length, 'a protocol of its own each');
  for (const [i, note] of notes.entries()) t.like(await store.noteByKey(note.access_key), { protocol: outcomes[i]!.protocol });
});
