import test from 'ava';
import fc from 'fast-check';
import { paginate } from '../../../lib/danfe/paginate.js';

test('paginate fills the smaller first page, then the next ones', (t) => {
  t.deepEqual(paginate([10, 10, 10, 10, 10], 20, 30), [{ start: 0, end: 2 }, { start: 2, end: 5 }]);
  t.deepEqual(paginate([], 20, 30), [{ start: 0, end: 0 }]);
});

test('paginate puts a row taller than a page alone on its page instead of losing it', (t) => {
  t.deepEqual(paginate([50, 5], 20, 30), [{ start: 0, end: 1 }, { start: 1, end: 2 }]);
});

test('paginate places every row exactly once, in order, within each page capacity', (t) => {
  fc.assert(fc.property(fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 300 }), fc.integer({ min: 10, max: 100 }), fc.integer({ min: 10, max: 200 }), (rows, first, next) => {
    const pages = paginate(rows, first, next);
    let expected = 0;
    pages.forEach((p, i) => {
      if (p.start !== expected) throw new Error('gap or overlap');
      const used = rows.slice(p.start, p.end).reduce((a, b) => a + b, 0);
      if (p.end - p.start > 1 && used > (i === 0 ? first : next)) throw new Error('overfull page');
      expected = p.end;
    });
    return expected === rows.length;
  }));
  t.pass();
});
