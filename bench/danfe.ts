/**
 * Benchmark (not a test) of the printable documents, one core, per note: parse the stored
 * nfeProc into the view model, then render the DANFE as HTML and as PDF (pdfkit, compressed, as
 * the route serves it), for 1 and 990 items; and the DANFE NFC-e (80 mm, with its QR code) of a
 * one-item NFC-e. Median and p99 over repeated runs, after a warm-up.
 *
 *   npx tsx bench/danfe.ts
 *   BENCH_RUNS=50 npx tsx bench/danfe.ts
 */
import { performance } from 'node:perf_hooks';
import { buildDanfeView } from '../lib/danfe/view-model.js';
import { renderNfeHtml } from '../lib/danfe/nfe-html.js';
import { renderNfePdfWithLayout } from '../lib/danfe/nfe-pdf.js';
import { renderNfceHtml } from '../lib/danfe/nfce-html.js';
import { renderNfcePdf } from '../lib/danfe/nfce-pdf.js';
import { aNfce, aNfe, anItem, COMPACT_TAXES } from '../test/support/checked-note-factories.js';
import { COMPACT_ITEMS_FROM } from '../test/support/nfe-factories.js';
import { authorizedProc, signedNote } from '../test/support/danfe-notes.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 30);

function items(n: number) {
  // 990 items of anItem's pass the authority's 500 KB: compact taxes and shorter texts keep such a note within it.
  const compact = n > COMPACT_ITEMS_FROM;
  return Array.from({ length: n }, (_, i) => anItem({ ...(compact ? COMPACT_TAXES : {}), codigo: `SKU-${i}`, descricao: compact ? `Produto de teste ${i}` : `Produto de teste numero ${i} com descricao razoavelmente longa` }));
}

async function measure(fn: () => unknown | Promise<unknown>, runs: number): Promise<{ median: number; p99: number }> {
  for (let i = 0; i < Math.min(5, runs); i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)]!, p99: times[Math.min(times.length - 1, Math.ceil(times.length * 0.99) - 1)]! };
}

const ms = (v: number) => (v < 10 ? v.toFixed(2) : v.toFixed(1));

const rows: string[] = ['| document | items | XML KB | parse (view model) | HTML | PDF | PDF KB | sheets |', '|---|---|---|---|---|---|---|---|'];
for (const n of [1, 990]) {
  const xml = authorizedProc(signedNote(aNfe(items(n))));
  const view = buildDanfeView(xml);
  const runs = n === 1 ? RUNS * 4 : RUNS;
  const parse = await measure(() => buildDanfeView(xml), runs);
  const html = await measure(() => renderNfeHtml(view), runs);
  const pdf = await measure(() => renderNfePdfWithLayout(view), runs);
  const out = await renderNfePdfWithLayout(view);
  rows.push(`| DANFE (NF-e) | ${n} | ${(xml.length / 1024).toFixed(1)} | ${ms(parse.median)} / ${ms(parse.p99)} ms | ${ms(html.median)} / ${ms(html.p99)} ms | ${ms(pdf.median)} / ${ms(pdf.p99)} ms | ${(out.pdf.length / 1024).toFixed(1)} | ${out.layout.pages} |`);
}
{
  const xml = authorizedProc(signedNote(aNfce(items(1).map((i) => ({ ...i, cfop: '5102' })))));
  const view = buildDanfeView(xml);
  const parse = await measure(() => buildDanfeView(xml), RUNS * 4);
  const html = await measure(() => renderNfceHtml(view), RUNS * 4);
  const pdf = await measure(() => renderNfcePdf(view), RUNS * 4);
  const bytes = await renderNfcePdf(view);
  rows.push(`| DANFCE (NFC-e, QR code) | 1 | ${(xml.length / 1024).toFixed(1)} | ${ms(parse.median)} / ${ms(parse.p99)} ms | ${ms(html.median)} / ${ms(html.p99)} ms | ${ms(pdf.median)} / ${ms(pdf.p99)} ms | ${(bytes.length / 1024).toFixed(1)} | 1 |`);
}
console.log(`DANFE rendering, median / p99 over ${RUNS} runs (x4 for one-item notes), node ${process.version}`);
console.log(rows.join('\n'));
