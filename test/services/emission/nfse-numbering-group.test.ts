import test from 'ava';
import { randomUUID } from 'node:crypto';
import { startStack, type Stack } from '../../support/stack.js';
import { NfseStore, type BuiltDps, type NewNfse } from '../../../services/emission/nfse/store.js';
import { nfseNumberingGroup } from '../../../services/emission/nfse/numbering.js';
import { numberingGroup } from '../../../services/emission/numbering-group.js';
import { KeyAlreadyBound } from '../../../services/emission/document-row.js';
import { Bulkhead } from '../../../services/shared/bulkhead.js';
import type { Knex } from 'knex';
import { numbersOf, queuedBehindOne as queued, storeKnex } from '../../support/grouped-numbering.js';
import type { NfseRecord } from '../../../lib/emission/nfse/document.js';

/**
 * A série's DPS that waited together for the issuer's numbering slot are numbered in one
 * transaction (services/emission/nfse/numbering.ts through group-claim.ts, issue 18), with the
 * guarantees of a single DPS's numbering: consecutive nDPS, every DPS stored TRANSMITTING with its
 * history and the partner's first-document flag, and each unusual case answered for its own DPS.
 * The NF-e counterpart: numbering-group.test.ts.
 */
let stack: Stack;
let store: NfseStore;
/** The store's own pool: only its statements are recorded. */
let own: Knex;
const claims: string[] = [];
/** Every statement sent meanwhile, with its bindings. */
const statements: Array<{ sql: string; bindings: unknown[] }> = [];
const deps = (knex: Knex) => ({ knex, schema: 'emission', now: () => new Date(), enqueueEvent: async () => undefined });

test.before(async () => {
  stack = await startStack({ env: { WEBHOOK_POLL_MS: '0' } });
  own = storeKnex(stack.config.databaseUrl);
  store = new NfseStore(deps(own));
  own.on('query', (q: { sql: string; bindings?: unknown[] }) => {
    if (/nfse_sequences" set next_number = next_number \+|claim_nfse_forecast/.test(q.sql)) claims.push(q.sql);
    statements.push({ sql: q.sql, bindings: q.bindings ?? [] });
  });
});
test.after.always(async () => { await own?.destroy(); await stack?.stop(); });

/** A série of its own. */
function aSpace(): NewNfse {
  return {
    issuerId: randomUUID(), serie: 1, environment: 2, partnerId: `partner-${randomUUID()}`, keyKind: 'live', codigoMunicipio: '3550308', amountCents: 150000n,
    requestBody: { dps: true }, idempotencyKey: null, idempotencyFingerprint: null, emittedAt: new Date('2026-11-26T10:00:00-03:00'), avisos: [],
  };
}
type Build = (nDps: number) => Promise<BuiltDps>;

/** The issuer's numbering slot as the emission service takes it (services/emission/nfse/emit.ts): one at a time here. */
const slots = new Bulkhead({ concurrency: 1, maxQueued: 100, queueTimeoutMs: 10_000, maxGroup: 32 });
const numberDps = (doc: NewNfse, build: Build) => slots.runGrouped(doc.issuerId, nfseNumberingGroup(doc), { doc, build }, (all) => store.createNumberedGroup(all), (r) => { throw new Error(r.reason); });

/** What a finished DPS would be: its XML and idDps name its nDPS. */
const built = (nDps: number) => async () => ({ xml: `<DPS n="${nDps}"/>`, idDps: `DPS${String(nDps).padStart(42, '0')}` });

const rowsOf = (issuerId: string) => stack.knex('emission.nfse_documents').where({ issuer_id: issuerId }).orderBy('n_dps')
  .select('id', 'n_dps', 'status', 'transmissions', 'dps_xml', 'id_dps', 'idempotency_key');
const numbers = (settled: Array<PromiseSettledResult<NfseRecord>>) => numbersOf(settled, (r) => r.nDps);
const queuedBehindOne = (doc: NewNfse, others: Array<{ doc?: Partial<NewNfse>; build?: Build }>) => queued(numberDps, doc, others, (n: number) => built(n)());
const nextNDps = async (issuerId: string) => Number((await stack.knex('emission.nfse_sequences').where({ issuer_id: issuerId }).first()).next_number);

test.serial('DPS queued behind a série\'s transaction are numbered in one: consecutive, stored TRANSMITTING with their history and the flag', async (t) => {
  const doc = aSpace();
  await numberDps(doc, (n) => built(n)()); // the série's first DPS creates its sequence row
  claims.length = 0;
  statements.length = 0;
  const settled = await queuedBehindOne(doc, Array.from({ length: 6 }, () => ({})));
  t.deepEqual(numbers(settled), [2, 3, 4, 5, 6, 7, 8]);
  t.is(claims.length, 2, 'one claim for the held DPS, one for the six behind it');
  // The held DPS, the série's first group: its claim (with BEGIN), then its write (with COMMIT).
  // The six behind it are foreseen: ONE statement, the claim of nDPS 3 to 8 and their DPS.
  const kind = (sql: string) => (/^begin; update/.test(sql) ? 'claim' : /^with created as/.test(sql) ? 'write' : /^with claim as \(select "emission"\."claim_nfse_forecast"\(/.test(sql) ? 'foreseen claim and write' : sql);
  t.deepEqual(statements.map((q) => kind(q.sql)), ['claim', 'write', 'foreseen claim and write']);
  t.deepEqual(statements[2]!.bindings.slice(0, 5), [doc.issuerId, doc.serie, doc.environment, 3, 6]);
  const rows = await rowsOf(doc.issuerId);
  t.deepEqual(rows.map((r: any) => [Number(r.n_dps), r.status, r.transmissions, r.dps_xml, r.id_dps]),
    [1, 2, 3, 4, 5, 6, 7, 8].map((n) => [n, 'TRANSMITTING', 1, `<DPS n="${n}"/>`, `DPS${String(n).padStart(42, '0')}`]));
  for (const s of settled) {
    const record = (s as PromiseFulfilledResult<NfseRecord>).value;
    t.deepEqual(await store.get(record.id), record, 'what the group answers is what it stored');
    t.like(record, { status: 'TRANSMITTING', transmissions: 1 });
    const history = await stack.knex('emission.nfse_history').where({ document_id: record.id }).orderBy('id').select('from_status', 'to_status', 'trigger', 'detail');
    t.deepEqual(history, [
      { from_status: null, to_status: 'CREATED', trigger: 'emission', detail: { idDps: record.idDps, nDps: record.nDps } },
      { from_status: 'CREATED', to_status: 'TRANSMITTING', trigger: 'emission', detail: { attempt: 1 } },
    ]);
  }
  const flag = await stack.knex('emission.partner_first_documents').where({ partner_id: doc.partnerId }).first('document_id');
  t.is(flag?.document_id, rows[0].id, 'the partner\'s first DPS, numbered before the group');
  t.is(await nextNDps(doc.issuerId), 9);
});

test.serial('a group sets the flag of a partner whose first DPS it holds', async (t) => {
  const doc = aSpace();
  await numberDps(doc, (n) => built(n)());
  const newcomer = { partnerId: `newcomer-${randomUUID()}` };
  const settled = await queuedBehindOne(doc, [{}, { doc: newcomer }, { doc: newcomer }, { doc: newcomer }]);
  t.deepEqual(numbers(settled), [2, 3, 4, 5, 6]);
  const flag = await stack.knex('emission.partner_first_documents').where({ partner_id: newcomer.partnerId }).first('document_id');
  t.is(flag?.document_id, (settled[2] as PromiseFulfilledResult<NfseRecord>).value.id, 'the newcomer\'s lowest nDPS in the group');
});

test.serial('a DPS whose finishing throws fails alone; the group is numbered one by one and stays consecutive', async (t) => {
  const doc = aSpace();
  await numberDps(doc, (n) => built(n)());
  claims.length = 0;
  const boom = async () => { throw new Error('assinatura falhou'); };
  const settled = await queuedBehindOne(doc, [{}, {}, { build: boom }, {}]);
  t.deepEqual(numbers(settled), [2, 3, 4, 'assinatura falhou', 5]);
  t.deepEqual((await rowsOf(doc.issuerId)).map((r: any) => Number(r.n_dps)), [1, 2, 3, 4, 5]);
  t.is(claims.length, 1 + 1 + 4, 'the held DPS, the group (rolled back), then each DPS on its own');
  t.is(await nextNDps(doc.issuerId), 6);
});

test.serial('two DPS of one group under one Idempotency-Key: one is stored, the other is told the key is bound', async (t) => {
  const doc = aSpace();
  await numberDps(doc, (n) => built(n)());
  const key = `pedido-${randomUUID()}`;
  const keyed = { idempotencyKey: key, idempotencyFingerprint: 'f'.repeat(64) };
  const settled = await queuedBehindOne(doc, [{}, { doc: keyed }, { doc: keyed }, {}]);
  t.deepEqual(settled.map((s) => s.status), ['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
  t.true((settled[3] as PromiseRejectedResult).reason instanceof KeyAlreadyBound);
  t.deepEqual(numbers(settled).filter((n) => typeof n === 'number'), [2, 3, 4, 5]);
  t.deepEqual((await rowsOf(doc.issuerId)).filter((r: any) => r.idempotency_key === key).map((r: any) => Number(r.n_dps)), [4]);
  t.is(await nextNDps(doc.issuerId), 6, 'the refused DPS\'s nDPS went back');
});

test.serial('a group is finished before its claim with the nDPS the node foresees, and again under the lock when another node took them', async (t) => {
  const doc = aSpace();
  await numberDps(doc, (n) => built(n)());
  const calls: number[] = [];
  const counted: Build = async (n) => { calls.push(n); return built(n)(); };
  // Foreseen: each DPS of the next group finished once, with the nDPS its claim answers.
  let settled = await queuedBehindOne(doc, [{ build: counted }, { build: counted }, { build: counted }]);
  t.deepEqual(numbers(settled), [2, 3, 4, 5]);
  calls.length = 0;
  settled = await Promise.allSettled([numberDps(doc, counted)]);
  t.deepEqual(numbers(settled), [6]);
  t.deepEqual(calls, [6], 'finished once, before the claim');

  // Another node numbers 7 and 8: this node's forecast of 7 misses, and the DPS is finished again with 9.
  const otherNode = new NfseStore(deps(stack.knex));
  await otherNode.createNumberedGroup([{ doc, build: (n) => built(n)() }, { doc, build: (n) => built(n)() }]);
  calls.length = 0;
  settled = await Promise.allSettled([numberDps(doc, counted)]);
  t.deepEqual(numbers(settled), [9]);
  t.deepEqual(calls, [7, 9]);
  const rows = await rowsOf(doc.issuerId);
  t.deepEqual(rows.map((r: any) => [Number(r.n_dps), r.dps_xml]), [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => [n, `<DPS n="${n}"/>`]));
});

test('a DPS group key is apart from the NF-e group keys of the same issuer, série and environment', (t) => {
  const doc = aSpace();
  const nfe = { ...doc, cnpj: '11222333000181', uf: 'SP', cnf: '12345678', tpEmis: 1, series: 1 };
  t.deepEqual([nfseNumberingGroup(doc), numberingGroup({ ...nfe, model: '55' }), numberingGroup({ ...nfe, model: '65' })],
    [`nfse/${doc.issuerId}/1/2`, `${doc.issuerId}/55/1/2`, `${doc.issuerId}/65/1/2`]);
});
