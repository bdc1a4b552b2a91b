import test from 'ava';
import { buildDanfeView } from '../../../lib/danfe/view-model.js';
import { DomainError } from '../../../lib/errors/index.js';
import { PrintPool } from '../../../services/emission/print-pool.js';
import { honestPng } from '../../support/hostile-png.js';
import { manyItemsProc, pdfPages } from '../../support/danfe-notes.js';

// A 990-item DANFE with a 2000-pixel logo with transparency: ~0.5 s of drawing on this class of machine.
const heavy = { kind: 'nfe' as const, view: buildDanfeView(manyItemsProc(990)), logo: honestPng(2000, 2000) };
const light = { kind: 'nfe' as const, view: buildDanfeView(manyItemsProc(1)) };

test('PDFs are drawn off the event loop: the loop keeps ticking while heavy DANFEs are drawn', async (t) => {
  const pool = new PrintPool({ threads: 1 });
  t.teardown(() => pool.destroy());
  t.true(pdfPages(await pool.render(light, 'p1')) >= 1); // the thread is loaded
  let last = performance.now();
  let longestGap = 0;
  const ticker = setInterval(() => { const now = performance.now(); longestGap = Math.max(longestGap, now - last); last = now; }, 5);
  const started = performance.now();
  const pdfs = await Promise.all([pool.render(heavy, 'p1'), pool.render(heavy, 'p1'), pool.render(heavy, 'p2')]);
  clearInterval(ticker);
  const elapsed = performance.now() - started;
  for (const pdf of pdfs) t.true(pdfPages(pdf) > 10);
  t.log(`3 heavy DANFEs in ${elapsed.toFixed(0)} ms; longest gap of the loop ${longestGap.toFixed(0)} ms`);
  // Drawn on the loop, each would hold it for the whole PDF.
  t.true(longestGap < elapsed / 4, `longest gap ${longestGap.toFixed(0)} ms of ${elapsed.toFixed(0)} ms`);
});

test('partners take turns for the thread, and past its bound a partner gets 503 alone', async (t) => {
  const pool = new PrintPool({ threads: 1, maxQueuePerPartner: 2 });
  t.teardown(() => pool.destroy());
  await pool.render(light, 'warm');
  const order: string[] = [];
  const job = (partner: string, name: string) => pool.render(heavy, partner).then(() => { order.push(name); });
  const a = [job('A', 'a1'), job('A', 'a2'), job('A', 'a3')]; // a1 runs, a2 and a3 wait
  const refused = await pool.render(light, 'A').then(() => null, (err: unknown) => err);
  t.true(refused instanceof DomainError);
  t.like(refused, { type: 'SERVICE_UNAVAILABLE', code: 503 });
  const b = job('B', 'b1'); // B is not held back by A's queue, nor refused
  await Promise.all([...a, b]);
  t.deepEqual(order, ['a1', 'a2', 'b1', 'a3']);
});
