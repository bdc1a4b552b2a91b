import test from 'ava';
import { randomUUID } from 'node:crypto';
import { startStack, type Stack } from '../../support/stack.js';
import { DocumentStore } from '../../../services/emission/store.js';
import { KeyAlreadyBound } from '../../../services/emission/document-row.js';
import { numberingGroup } from '../../../services/emission/numbering-group.js';
import { Bulkhead } from '../../../services/shared/bulkhead.js';
import type { Knex } from 'knex';
import { numbersOf, queuedBehindOne as queued, storeKnex } from '../../support/grouped-numbering.js';
import type { DocumentRecord } from '../../../lib/emission/document.js';

/**
 * A series' notes that waited together for the issuer's numbering slot are numbered in one
 * transaction (services/emission/numbering-group.ts, issue 18), with the guarantees of a single note's
 * numbering: consecutive numbers, every note stored TRANSMITTING with its history and the
 * partner's first-document flag, and each unusual case answered for its own note.
 */
let stack: Stack;
let store: DocumentStore;
/** The store's own pool: only its statements are recorded. */
let own: Knex;
const claims: string[] = [];
/** Every statement sent meanwhile, with its bindings. */
const statements: Array<{ sql: string; bindings: unknown[] }> = [];

test.before(async () => {
  stack = await startStack({ env: { WEBHOOK_POLL_MS: '0' } });
  own = storeKnex(stack.config.databaseUrl);
  store = new DocumentStore({ knex: own, schema: 'emission', now: () => new Date(), enqueueEvent: async () => undefined });
  own.on('query', (q: { sql: string; bindings?: unknown[] }) => {
    if (/next_number = next_number \+|claim_forecast/.test(q.sql)) claims.push(q.sql);
    statements.push({ sql: q.sql, bindings: q.bindings ?? [] });
  });
});
test.after.always(async () => { await own?.destroy(); await stack?.stop(); });

let series = 0;
/** A series of its own (numbering follows the CNPJ across issuer rows). */
function aSpace() {
  const issuerId = randomUUID();
  return {
    issuerId, cnpj: '11222333000181', model: '55' as const, series: ++series, environment: 2 as const, partnerId: `partner-${randomUUID()}`,
    uf: 'SP', keyKind: 'live' as const, amountCents: 1000n, requestBody: { nota: true }, idempotencyKey: null as string | null,
    idempotencyFingerprint: null as string | null, tpEmis: 1, emittedAt: new Date('2026-11-26T10:00:00-03:00'),
  };
}
type Doc = ReturnType<typeof aSpace>;
type Build = (n: number) => Promise<{ cnf: string; built: { xml: string; accessKey: string; digestValue: string } }>;

/** The issuer's numbering slot as the emission service takes it (services/emission/emit.ts): one at a time here. */
const slots = new Bulkhead({ concurrency: 1, maxQueued: 100, queueTimeoutMs: 10_000, maxGroup: 32 });
const numberNote = (doc: Doc, build: Build) => slots.runGrouped(doc.issuerId, numberingGroup(doc), { doc, build }, (notes) => store.createNumberedGroup(notes), (r) => { throw new Error(r.reason); });

/** What a finished note would be: its key and XML name its number. */
const built = (number: number) => async () => ({
  cnf: String(10_000_000 + number),
  built: { xml: `<NFe n="${number}"/>`, accessKey: `3526111122233300018155001${String(number).padStart(9, '0')}1000000001`.slice(0, 44), digestValue: `d${number}` },
});

const rowsOf = (issuerId: string) => stack.knex('emission.documents').where({ issuer_id: issuerId }).orderBy('number')
  .select('id', 'number', 'status', 'transmissions', 'transmitted_xml', 'access_key', 'idempotency_key');
const numbers = (settled: Array<PromiseSettledResult<DocumentRecord>>) => numbersOf(settled, (r) => r.number);
const queuedBehindOne = (doc: Doc, others: Array<{ doc?: Partial<Doc>; build?: Build }>) => queued(numberNote, doc, others, (n: number) => built(n)());

test.serial('notes queued behind a series\' transaction are numbered in one: consecutive, stored TRANSMITTING with their history and the flag', async (t) => {
  const doc = aSpace();
  await numberNote(doc, (n) => built(n)()); // the series' first note creates its sequence row
  claims.length = 0;
  statements.length = 0;
  const settled = await queuedBehindOne(doc, Array.from({ length: 6 }, () => ({})));
  t.deepEqual(numbers(settled), [2, 3, 4, 5, 6, 7, 8]);
  t.is(claims.length, 2, 'one claim for the held note, one for the six behind it');
  // The held note: the series' first group is not foreseen (its sequence row was just created), so
  // its claim (with BEGIN) and its write (with COMMIT). The six behind it are foreseen (the series
  // continues where this node left it): ONE statement, the claim of the numbers from 3 (six of
  // them) and their documents, committed by itself.
  const kind = (sql: string) => (/^begin; update/.test(sql) ? 'claim' : /^with\s+created as/.test(sql) ? 'write' : /^with claim as \(select "emission"\."claim_forecast"\(/.test(sql) ? 'foreseen claim and write' : sql);
  t.deepEqual(statements.map((q) => kind(q.sql)), ['claim', 'write', 'foreseen claim and write']);
  t.deepEqual(statements[2]!.bindings.slice(0, 6), [doc.issuerId, '55', doc.series, 2, 3, 6]);
  const rows = await rowsOf(doc.issuerId);
  t.deepEqual(rows.map((r: any) => [r.number, r.status, r.transmissions, r.transmitted_xml]),
    [1, 2, 3, 4, 5, 6, 7, 8].map((n) => [n, 'TRANSMITTING', 1, `<NFe n="${n}"/>`]));
  for (const s of settled) {
    const record = (s as PromiseFulfilledResult<DocumentRecord>).value;
    const row = rows.find((r: any) => r.id === record.id);
    t.is(record.accessKey, row.access_key);
    t.is(record.status, 'TRANSMITTING');
    const history = await stack.knex('emission.document_history').where({ document_id: record.id }).orderBy('id').select('from_status', 'to_status', 'trigger', 'detail');
    t.deepEqual(history, [
      { from_status: null, to_status: 'CREATED', trigger: 'emission', detail: { accessKey: record.accessKey, number: record.number } },
      { from_status: 'CREATED', to_status: 'TRANSMITTING', trigger: 'emission', detail: { attempt: 1 } },
    ]);
  }
  t.is(Number((await stack.knex('emission.number_sequences').where({ issuer_id: doc.issuerId }).first()).next_number), 9);
});

test.serial('a group sets the flag of a partner whose first notes it holds', async (t) => {
  const doc = aSpace();
  await numberNote(doc, (n) => built(n)());
  const newcomer = { partnerId: `newcomer-${randomUUID()}` };
  const settled = await queuedBehindOne(doc, [{}, { doc: newcomer }, { doc: newcomer }, { doc: newcomer }]);
  t.deepEqual(numbers(settled), [2, 3, 4, 5, 6]);
  const flag = await stack.knex('emission.partner_first_documents').where({ partner_id: newcomer.partnerId }).first('document_id');
  t.is(flag?.document_id, (settled[2] as PromiseFulfilledResult<DocumentRecord>).value.id, 'the newcomer\'s lowest number in the group');
});

test.serial('a note whose finishing throws fails alone; the group is numbered one by one and stays consecutive', async (t) => {
  const doc = aSpace();
  await numberNote(doc, (n) => built(n)());
  claims.length = 0;
  const boom = async () => { throw new Error('assinatura falhou'); };
  const settled = await queuedBehindOne(doc, [{}, {}, { build: boom }, {}]);
  t.deepEqual(numbers(settled), [2, 3, 4, 'assinatura falhou', 5]);
  t.deepEqual((await rowsOf(doc.issuerId)).map((r: any) => r.number), [1, 2, 3, 4, 5]);
  t.is(claims.length, 1 + 1 + 4, 'the held note, the group (rolled back), then each note on its own');
});

test.serial('a group\'s notes are finished side by side, and a failure answers only once every one settled: no straggler outlives the group', async (t) => {
  const doc = aSpace();
  await numberNote(doc, (n) => built(n)());
  const events: string[] = [];
  let inFlight = 0;
  let together = 0;
  let runs = 0;
  /** Slow in the group's first run, as a signature still in the thread pool. */
  const slow: Build = async (n) => {
    inFlight++; together = Math.max(together, inFlight);
    if (runs++ === 0) await new Promise((r) => setTimeout(r, 50));
    inFlight--;
    events.push(`slow finished ${n}`);
    return built(n)();
  };
  const boom: Build = async () => { inFlight++; together = Math.max(together, inFlight); await Promise.resolve(); inFlight--; events.push('boom'); throw new Error('assinatura falhou'); };
  const onQuery = (q: { sql: string }) => { if (/next_number = next_number \+|claim_forecast/.test(q.sql)) events.push('claim'); };
  own.on('query', onQuery);
  try {
    const settled = await queuedBehindOne(doc, [{ build: slow }, { build: boom }]);
    t.deepEqual(numbers(settled), [2, 3, 'assinatura falhou']);
  } finally {
    own.removeListener('query', onQuery);
  }
  t.is(together, 2, 'both notes of the group were finishing at once');
  // The failure moved the group on (its claim, then each note alone) only after the slow run ended.
  // (The first claim is the held note's.)
  t.deepEqual(events.slice(0, 4), ['claim', 'boom', 'slow finished 3', 'claim'], events.join(', '));
  const rows = await rowsOf(doc.issuerId);
  t.deepEqual(rows.map((r: any) => [r.number, r.transmitted_xml]), [[1, '<NFe n="1"/>'], [2, '<NFe n="2"/>'], [3, '<NFe n="3"/>']]);
});

test.serial('a number held by a passthrough note or an inutilização inside the group\'s range is skipped, as for one note', async (t) => {
  const doc = aSpace();
  await numberNote(doc, (n) => built(n)());
  await store.createWithNumber({ ...doc, cnf: '10000004' }, 4, { xml: '<NFe n="4"/>', accessKey: '3'.repeat(44), digestValue: 'd4' });
  const now = new Date();
  await stack.knex('emission.inutilizacoes').insert({
    id: randomUUID(), partner_id: doc.partnerId, issuer_id: doc.issuerId, model: '55', series: doc.series, environment: 2, start_number: 6, end_number: 7,
    justificativa: 'Numeração pulada por falha do sistema do emissor', status: 'HOMOLOGATED', attempts: 1, created_at: now, updated_at: now,
  });
  const settled = await queuedBehindOne(doc, [{}, {}, {}, {}]);
  t.deepEqual(numbers(settled), [2, 3, 5, 8, 9]);
  t.deepEqual((await rowsOf(doc.issuerId)).map((r: any) => r.number), [1, 2, 3, 4, 5, 8, 9]);
});

test.serial('two notes of one group under one Idempotency-Key: one is stored, the other is told the key is bound', async (t) => {
  const doc = aSpace();
  await numberNote(doc, (n) => built(n)());
  const key = `pedido-${randomUUID()}`;
  const keyed = { idempotencyKey: key, idempotencyFingerprint: 'f'.repeat(64) };
  const settled = await queuedBehindOne(doc, [{}, { doc: keyed }, { doc: keyed }, {}]);
  t.deepEqual(settled.map((s) => s.status), ['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
  t.true((settled[3] as PromiseRejectedResult).reason instanceof KeyAlreadyBound);
  t.deepEqual(numbers(settled).filter((n) => typeof n === 'number'), [2, 3, 4, 5]);
  t.deepEqual((await rowsOf(doc.issuerId)).filter((r: any) => r.idempotency_key === key).map((r: any) => r.number), [4]);
});

test.serial('a group is finished before its claim with the numbers the node foresees, and again under the lock when another node took them', async (t) => {
  const doc = aSpace();
  await numberNote(doc, (n) => built(n)());
  const calls: number[] = [];
  const counted: Build = async (n) => { calls.push(n); return built(n)(); };
  // Foreseen: each note of the next group finished once, with the number its claim answers.
  let settled = await queuedBehindOne(doc, [{ build: counted }, { build: counted }, { build: counted }]);
  t.deepEqual(numbers(settled), [2, 3, 4, 5]);
  calls.length = 0;
  settled = await Promise.allSettled([numberNote(doc, counted)]);
  t.deepEqual(numbers(settled), [6]);
  t.deepEqual(calls, [6], 'finished once, before the claim');

  // Another node numbers 7 and 8: this node's forecast of 7 misses, and the note is finished again with 9.
  const otherNode = new DocumentStore({ knex: stack.knex, schema: 'emission', now: () => new Date(), enqueueEvent: async () => undefined });
  await otherNode.createNumberedGroup([{ doc, build: (n) => built(n)() }, { doc, build: (n) => built(n)() }]);
  calls.length = 0;
  settled = await Promise.allSettled([numberNote(doc, counted)]);
  t.deepEqual(numbers(settled), [9]);
  t.deepEqual(calls, [7, 9]);
  const rows = await rowsOf(doc.issuerId);
  t.deepEqual(rows.map((r: any) => [r.number, r.transmitted_xml]), [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => [n, `<NFe n="${n}"/>`]));
});

test.serial('an inutilização committed while a foreseen claim waits for the series\' lock is seen: its numbers are skipped', async (t) => {
  const doc = aSpace();
  await numberNote(doc, (n) => built(n)());
  await numberNote(doc, (n) => built(n)()); // 2, foreseen: the series is forecast from here on
  // Another transaction (an inutilização's claim, inutilizacao-store.ts) holds the series' lock and
  // covers 3 and 4; the next group's statement, foreseeing 3, waits for that lock.
  const holder = await stack.knex.transaction();
  await holder('emission.number_sequences').where({ issuer_id: doc.issuerId }).forUpdate().first('next_number');
  const now = new Date();
  await holder('emission.inutilizacoes').insert({
    id: randomUUID(), partner_id: doc.partnerId, issuer_id: doc.issuerId, model: '55', series: doc.series, environment: 2, start_number: 3, end_number: 4,
    justificativa: 'Numeração pulada por falha do sistema do emissor', status: 'PENDING', attempts: 1, created_at: now, updated_at: now,
  });
  statements.length = 0;
  const numbering = Promise.allSettled([numberNote(doc, (n) => built(n)())]);
  await waitFor(() => statements.some((q) => /claim_forecast/.test(q.sql)));
  await new Promise((r) => setTimeout(r, 100));
  await holder.commit();
  t.deepEqual(numbers(await numbering), [5]);
  t.deepEqual((await rowsOf(doc.issuerId)).map((r: any) => r.number), [1, 2, 5]);
  t.is(Number((await stack.knex('emission.number_sequences').where({ issuer_id: doc.issuerId }).first()).next_number), 6);
});

test.serial('a passthrough note holding a foreseen number: the one statement is refused by the unique index, and the number is skipped', async (t) => {
  const doc = aSpace();
  await numberNote(doc, (n) => built(n)());
  await numberNote(doc, (n) => built(n)()); // 2: the series is forecast from 3 on
  await store.createWithNumber({ ...doc, cnf: '10000003' }, 3, { xml: '<NFe n="3"/>', accessKey: '4'.repeat(44), digestValue: 'd3' });
  statements.length = 0;
  t.deepEqual(numbers(await Promise.allSettled([numberNote(doc, (n) => built(n)())])), [4]);
  t.regex(statements[0]!.sql, /^with claim as \(select "emission"\."claim_forecast"\(/, 'the foreseen claim was tried first');
  t.deepEqual((await rowsOf(doc.issuerId)).map((r: any) => [r.number, r.transmitted_xml]), [1, 2, 3, 4].map((n) => [n, `<NFe n="${n}"/>`]));
  t.is(Number((await stack.knex('emission.number_sequences').where({ issuer_id: doc.issuerId }).first()).next_number), 5);
});

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!condition()) throw new Error('waitFor: condition never held');
}
