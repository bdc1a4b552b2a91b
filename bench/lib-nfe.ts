/**
 * Benchmark (not a test) of the NF-e hot path in lib/, one core, per note:
 *   build (canonical XML) + sign (node:crypto) + XSD (reused libxml2-wasm validator)
 * for 1, 50 and 990 items, median and p99 over repeated runs and the mean of the whole batch
 * (GC included, the figure issue 18 sets a target for); the same unsigned notes signed
 * through xml-crypto's generic path as a baseline; and RSS/heap across 100 000 one-item notes.
 *
 *   npx tsx --expose-gc bench/lib-nfe.ts            (--expose-gc optional: exact heap figures)
 *   BENCH_MEMORY_NOTES=20000 npx tsx bench/lib-nfe.ts
 *
 * The chain starts from the request body: strict validation (validateNfeBody), every business
 * rule (checkNfe), totals (computeTotals), then build, sign and XSD — what POST /v1/nfe runs in
 * lib/ before persisting. Items carry ICMS 00 plus PIS/COFINS and the IBS/CBS group.
 */
import { performance } from 'node:perf_hooks';
import { SignedXml } from 'xml-crypto';
import { buildSignedNfe } from '../lib/nfe/document.js';
import { buildNfe, NFE_NS } from '../lib/nfe/xml/nfe.js';
import { assertNfeSchema } from '../lib/nfe/xml/validate.js';
import { createSigner } from '../lib/sign/signer.js';
import type { CheckedNote, NfeBody, NoteTotals } from '../lib/nfe/types.js';
import { validateNfeBody } from '../lib/nfe/validate.js';
import { checkNfe } from '../lib/nfe/check.js';
import { computeTotals } from '../lib/nfe/totals.js';
import { applyApproximateTax } from '../lib/nfe/approximate-tax.js';
import { aRate, ratesByNcm } from '../test/support/approximate-tax.js';
import { aContext, testSigningMaterial } from '../test/support/checked-note-factories.js';
import { aCompactItem, aValidNfeBody, anIssuer, anItem, closingPayments, COMPACT_ITEMS_FROM, IBS_CBS } from '../test/support/nfe-factories.js';

const material = testSigningMaterial();
const signer = createSigner(material);

const issuer = anIssuer();

/**
 * A request body with `items` lines (CST 00 18%, PIS/COFINS 01, IBS/CBS 0.1% + 0.9%). At 990 items
 * that note is 1 MB, past the authority's 500 KB per message, and refused before the XSD
 * (DOCUMENTO_EXCEDE_TAMANHO_MAXIMO): the 990 row's items carry ICMS 41, PIS/COFINS 07 and short
 * descriptions instead (~480 KB).
 */
function bodyWith(items: number): NfeBody {
  const lines = Array.from({ length: items }, (_, i) => (items > COMPACT_ITEMS_FROM ? aCompactItem({ codigo: `SKU-${i}`, descricao: `Produto ${i}` }) : anItem({
    codigo: `SKU-${i}`, descricao: `Produto de teste numero ${i} com descricao razoavelmente longa`,
    ibsCbs: IBS_CBS,
  })));
  return JSON.parse(JSON.stringify(aValidNfeBody({ items: lines, pagamentos: closingPayments(lines) })));
}

/** validate + rules + totals: what runs before the number is allocated. */
function prepareNote(body: NfeBody): { note: CheckedNote; totals: NoteTotals } {
  const note = checkNfe(validateNfeBody(body), issuer);
  return { note, totals: computeTotals(note) };
}
function noteWith(items: number): CheckedNote {
  return prepareNote(bodyWith(items)).note;
}
function prepare(note: CheckedNote): NoteTotals {
  return computeTotals(note);
}

function stats(samples: number[]): { median: number; p99: number } {
  const s = [...samples].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)]!, p99: s[Math.min(s.length - 1, Math.ceil(s.length * 0.99) - 1)]! };
}

/** Median and p99 of single runs, and the batch's mean: its whole time over its runs, GC included (issue 18's figure). */
function time(runs: number, fn: () => void): { median: number; p99: number; batchMean: number } {
  for (let i = 0; i < Math.min(20, runs); i++) fn(); // warm-up
  const samples: number[] = [];
  const start = performance.now();
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    samples.push(performance.now() - t0);
  }
  return { ...stats(samples), batchMean: (performance.now() - start) / runs };
}

function xmlCryptoSign(unsignedXml: string): string {
  const sig = new SignedXml({ privateKey: material.keyPem, publicCert: material.certPem });
  sig.signatureAlgorithm = 'http://www.w3.org/2000/09/xmldsig#rsa-sha1';
  sig.canonicalizationAlgorithm = 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315';
  sig.addReference({
    xpath: "//*[local-name(.)='infNFe']",
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315'],
    digestAlgorithm: 'http://www.w3.org/2000/09/xmldsig#sha1',
  });
  sig.computeSignature(unsignedXml, { location: { reference: "//*[local-name(.)='infNFe']", action: 'after' } });
  return sig.getSignedXml();
}

const fmt = (ms: number): string => (ms < 10 ? ms.toFixed(3) : ms.toFixed(1));
const rows: string[] = [];
const RUNS: Record<number, [chain: number, baseline: number]> = { 1: [3000, 200], 50: [500, 20], 990: [40, 3] };

console.log(`node ${process.version}, ${process.arch}; one process, one thread`);
for (const items of [1, 50, 990]) {
  const note = noteWith(items);
  const totals = prepare(note);
  const ctx = aContext(note);
  const [runs, baseRuns] = RUNS[items]!;
  const inf = buildNfe(note, totals, ctx);
  const signed = buildSignedNfe(note, totals, ctx, signer);
  const kb = Buffer.byteLength(signed.xml) / 1024;
  const body = bodyWith(items);
  const tValidate = time(runs, () => prepareNote(body));
  const tBuild = time(runs, () => buildNfe(note, totals, ctx));
  const tSign = time(runs, () => signer.sign(inf.canonical, inf.id));
  const tXsd = time(runs, () => assertNfeSchema(signed.xml));
  const tChain = time(runs, () => { const p = prepareNote(body); buildSignedNfe(p.note, p.totals, ctx, signer); });
  const unsigned = `<NFe xmlns="${NFE_NS}">${inf.element}</NFe>`;
  const tBase = time(baseRuns, () => xmlCryptoSign(unsigned));
  const ratio = tBase.median / (tBuild.median + tSign.median);
  const line = `| ${items} | ${kb.toFixed(1)} | ${fmt(tValidate.median)} | ${fmt(tBuild.median)} | ${fmt(tSign.median)} | ${fmt(tXsd.median)} | **${fmt(tChain.median)}** / ${fmt(tChain.p99)} | ${fmt(tChain.batchMean)} | ${fmt(tBase.median)} / ${fmt(tBase.p99)} | ${ratio.toFixed(0)}× |`;
  rows.push(line);
  console.log(line);
}
console.log('| items | KB | validate+rules+totals | build | sign | XSD | chain median / p99 | chain batch mean, GC included | xml-crypto sign median / p99 | xml-crypto ÷ (build+sign) |');

// Lei 12.741 approximate tax (issuers with valorAproximadoTributosEnabled): the lib part, per note,
// with the rate lines already fetched (the service adds one v1.classification.ratesFor call).
const rates = ratesByNcm(aRate({ ncm: '61091000' }));
for (const items of [1, 50, 990]) {
  const note = noteWith(items);
  const t = time(RUNS[items]![0], () => computeTotals(applyApproximateTax(note, rates, 'SP', '2026-11-22')));
  console.log(`approximate tax + totals, ${items} items: median ${fmt(t.median)} ms, p99 ${fmt(t.p99)} ms`);
}

const MEMORY_NOTES = Number(process.env.BENCH_MEMORY_NOTES ?? 100_000);
const gc = (globalThis as { gc?: () => void }).gc;
const mem = () => { gc?.(); const m = process.memoryUsage(); return { rss: m.rss / 2 ** 20, heap: m.heapUsed / 2 ** 20, ext: m.external / 2 ** 20 }; };
const one = noteWith(1);
const oneCtx = aContext(one);
for (let i = 0; i < 2000; i++) buildSignedNfe(one, prepare(one), oneCtx, signer); // reach steady state
await new Promise((r) => setImmediate(r));
const before = mem();
const t0 = performance.now();
const checkpoints: string[] = [];
// Yield to the event loop every 1000 notes, as a service does between requests: libxml2-wasm
// wraps each parsed document in a WeakRef, and V8 keeps WeakRef targets alive until the current
// job ends, so one synchronous loop of 100 000 parses would grow the heap (~90 B/parse) even
// though every document is disposed. Measured here: flat once the loop yields.
const tick = () => new Promise((r) => setImmediate(r));
for (let i = 1; i <= MEMORY_NOTES; i++) {
  buildSignedNfe(one, prepare(one), oneCtx, signer);
  if (i % 1000 === 0) await tick();
  if (i % (MEMORY_NOTES / 5) === 0) {
    const m = mem();
    checkpoints.push(`${i}: rss ${m.rss.toFixed(0)} MB, heap ${m.heap.toFixed(1)} MB`);
  }
}
const elapsed = performance.now() - t0;
const after = mem();
console.log(`memory over ${MEMORY_NOTES} one-item notes (${(elapsed / MEMORY_NOTES).toFixed(3)} ms/note, gc ${gc ? 'forced' : 'not exposed'}):`);
console.log(`  before: rss ${before.rss.toFixed(0)} MB, heap ${before.heap.toFixed(1)} MB, external ${before.ext.toFixed(1)} MB`);
console.log(`  after:  rss ${after.rss.toFixed(0)} MB, heap ${after.heap.toFixed(1)} MB, external ${after.ext.toFixed(1)} MB`);
for (const c of checkpoints) console.log(`  ${c}`);
