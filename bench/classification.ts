/**
 * Benchmark (not a test) of assisted taxation of goods in lib/, one core, per note: what the two
 * services run for `resolverTributacao: true` besides their I/O — itemsToResolve + CSOSN
 * (emission), resolveItems over the shipped table with a warm index and a product class memory
 * (classification), and applyResolution (emission). Items alternate a single-class NCM
 * (61091000), a multi-class NCM answered by the memory (10063021) and a hint (200034 on 03061700),
 * so every path runs.
 *
 *   npx tsx --expose-gc bench/classification.ts
 */
import { performance } from 'node:perf_hooks';
import { confirmClass } from '../lib/classification/memory.js';
import { applyResolution, defaultCsosn, itemsToResolve } from '../lib/classification/note-groups.js';
import { resolveItems } from '../lib/classification/resolve.js';
import type { ProductClass } from '../lib/classification/types.js';
import { validateNfeBody } from '../lib/nfe/validate.js';
import { aValidNfeBody, anItem, closingPayments } from '../test/support/nfe-factories.js';
import { shippedIndex } from '../test/support/class-table.js';

const index = shippedIndex();

function bodyWith(items: number) {
  const raw = Array.from({ length: items }, (_, i) => {
    const kind = i % 3;
    if (kind === 0) return anItem({ codigo: `CAMISA-${i}`, ncm: '61091000' });
    if (kind === 1) return anItem({ codigo: `ARROZ-${i}`, ncm: '10063021' });
    return anItem({ codigo: `CAMARAO-${i}`, ncm: '03061700', ibsCbs: { cClassTrib: '200034' } as any });
  });
  const request = JSON.parse(JSON.stringify(aValidNfeBody({ items: raw, pagamentos: closingPayments(raw), resolverTributacao: true })));
  const memory = new Map<string, ProductClass>(raw.filter((_, i) => i % 3 === 1).map((r) => [r.codigo, confirmClass(r.codigo, r.ncm, '200003', false)]));
  return { request, body: validateNfeBody(request), memory };
}

function once(input: ReturnType<typeof bodyWith>): void {
  const items = itemsToResolve(input.body.items, input.request.items);
  const csosn = new Map<number, string>();
  input.body.items.forEach((item, i) => { const c = defaultCsosn(item.icms, item.cfop, 3, '55'); if (c) csosn.set(i, c); });
  const result = resolveItems({ index, model: '55', day: '2026-11-25', items, memory: input.memory });
  if (result.unresolved.length) throw new Error(JSON.stringify(result.unresolved[0]));
  applyResolution(input.body, result.resolved, csosn, 'fonte');
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
for (const [items, runs] of [[1, 20_000], [50, 2_000], [990, 200]] as const) {
  const input = bodyWith(items);
  for (let i = 0; i < Math.min(runs, 200); i++) once(input);
  (globalThis as any).gc?.();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    once(input);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const median = pct(times, 0.5);
  console.log(`${String(items).padStart(4)} items: median ${median.toFixed(4)} ms, p99 ${pct(times, 0.99).toFixed(4)} ms, per item ${(median / items * 1000).toFixed(2)} µs`);
}
