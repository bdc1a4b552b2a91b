/**
 * Numbers per second of ONE series (issue 18: "≥ 2,000 numbers/s per series"). Every note of an
 * issuer's series queues on its sequence row from the claim to the commit, so a series' rate is
 * bounded by what runs under that lock. This drives the emission store's own numbering (the
 * direct transaction on Postgres with fsync on) from BENCH_WORKERS concurrent callers on one
 * series, through the issuer's numbering slots as the service takes them (services/emission/emit.ts:
 * EMISSION_NUMBERING_PER_ISSUER slots; the notes that waited for one are numbered in one
 * transaction, services/emission/numbering-group.ts), with what the service runs under the lock:
 *
 * - `finish` (today's path): the note was drafted and checked against the XSD before the claim;
 *   under the lock it is renumbered and signed (lib/nfe/document.ts finishNfe);
 * - `build` (before 2026-11-26): the whole build, signature and XSD check under the lock
 *   (buildSignedNfe);
 * - `store`: one note signed once and stored under every number, so nothing but the claim, the
 *   insert and the commit is left: the series' lock's own ceiling, which this process's signing
 *   hides in `finish` (one node signs every note of its series on one thread).
 *
 * No HTTP, no authority: the series' own ceiling, per item count. Every run checks the numbers
 * are 1..N without a gap.
 *
 *   npx tsx bench/numbering.ts
 *   BENCH_SECONDS=5 BENCH_WORKERS=16 BENCH_ITEMS=1,50,990 BENCH_MODES=finish,build,store npx tsx bench/numbering.ts
 */
import { randomUUID } from 'node:crypto';
import { startStack } from '../test/support/stack.js';
import { DocumentStore } from '../services/emission/store.js';
import { numberingGroup } from '../services/emission/numbering-group.js';
import { MAX_NUMBERING_GROUP, type PendingNote } from '../services/emission/numbering-group.js';
import { Bulkhead } from '../services/shared/bulkhead.js';
import { loadConfig } from '../config.js';
import { buildSignedNfe, draftNfe, finishNfe } from '../lib/nfe/document.js';
import { createSigner } from '../lib/sign/signer.js';
import { aContext, aNfe, anIssuer, anItem, COMPACT_TAXES, testSigningMaterial, totalsOf } from '../test/support/checked-note-factories.js';
import { COMPACT_ITEMS_FROM } from '../test/support/nfe-factories.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const workers = Number(process.env.BENCH_WORKERS ?? 16);
const itemCounts = (process.env.BENCH_ITEMS ?? '1,50,990').split(',').map(Number);
type Mode = 'finish' | 'build' | 'store';
const modes = (process.env.BENCH_MODES ?? 'finish,build,store').split(',') as Mode[];

const stack = await startStack({ env: { WEBHOOK_POLL_MS: '0' } });
const signer = createSigner(testSigningMaterial());
const issuer = anIssuer();
const store = new DocumentStore({ knex: stack.knex, schema: 'emission', now: () => new Date(), enqueueEvent: async () => undefined });
const { numbering } = loadConfig({});
const slots = new Bulkhead({ concurrency: numbering.perIssuer, maxQueued: numbering.maxQueued, queueTimeoutMs: numbering.queueTimeoutMs, maxGroup: MAX_NUMBERING_GROUP, oneRunPerGroup: true });
const numberNote = (note: PendingNote) => slots.runGrouped(note.doc.issuerId, numberingGroup(note.doc), note, (notes) => store.createNumberedGroup(notes), (r) => { throw new Error(`refused: ${r.reason}`); });

let runs = 0;
async function run(items: number, mode: Mode) {
  const note = aNfe(Array.from({ length: items }, (_, i) => anItem({ ...(items > COMPACT_ITEMS_FROM ? COMPACT_TAXES : {}), codigo: `P${i + 1}` })));
  const totals = totalsOf(note);
  const dhEmi = '2026-11-26T10:00:00-03:00';
  const draft = draftNfe(note, totals, aContext(note, { issuer, numero: 999_999_999, cNF: '11111111', dhEmi }), signer);
  // A fresh series per run (numbering follows the CNPJ across issuer rows): its first note creates the sequence row.
  const space = { issuerId: randomUUID(), cnpj: issuer.cnpj, model: '55' as const, series: ++runs, environment: 2 as const };
  const doc = {
    ...space, partnerId: randomUUID(), uf: issuer.endereco.uf, keyKind: 'live' as const, amountCents: totals.vNF, requestBody: null,
    idempotencyKey: null, idempotencyFingerprint: null, tpEmis: 1, emittedAt: new Date(),
  };
  const sign = async (numero: number) => {
    const cNF = String(numero % 90_000_000 + 10_000_000);
    const ctx = aContext(note, { issuer, numero, cNF, dhEmi });
    const signed = mode === 'build' ? buildSignedNfe(note, totals, ctx, signer) : await finishNfe(draft, ctx, signer);
    return { cnf: cNF, built: { xml: signed.xml, accessKey: signed.accessKey, digestValue: signed.digestValue } };
  };
  const once = await sign(1);
  const underLock = async (numero: number) => (mode === 'store' ? once : sign(numero));
  await numberNote({ doc, build: underLock });
  const until = performance.now() + seconds * 1000;
  const started = performance.now();
  let notes = 0;
  await Promise.all(Array.from({ length: workers }, async () => {
    while (performance.now() < until) {
      await numberNote({ doc, build: underLock });
      notes++;
    }
  }));
  const elapsed = (performance.now() - started) / 1000;
  const numbers = (await stack.knex('emission.documents').where({ issuer_id: space.issuerId, series: space.series }).orderBy('number').pluck('number')).map(Number);
  return { items, mode, workers, numbersPerSecond: Math.round(notes / elapsed), notes: numbers.length, numbersOk: numbers.every((n, i) => n === i + 1) };
}

try {
  const results = [];
  for (const items of itemCounts) for (const mode of modes) results.push(await run(items, mode));
  console.table(results);
  for (const r of results) console.log(`BENCH ${JSON.stringify({ scenario: `numbering-${r.mode}-${r.items}`, ...r, mode: `one series, ${r.mode}` })}`);
} finally {
  await stack.stop();
}
