import test from 'ava';
import { bars, barcodeSvg, code128 } from '../../../lib/danfe/barcode.js';

const KEY = '35261112345678000195550010000012341876543210';

test('code128 encodes the 44-digit key in code set C: Start C, 22 digit pairs, check symbol, stop', (t) => {
  const code = code128(KEY);
  t.deepEqual(code.widths.slice(0, 6), [2, 1, 1, 2, 3, 2]); // Start C (symbol 105)
  t.deepEqual(code.widths.slice(-7), [2, 3, 3, 1, 1, 1, 2]); // Stop
  // 11 modules per symbol: start + 22 pairs + check, plus the 13-module stop. Code set B would need 44 symbols.
  t.is(code.modules, 11 * (1 + 22 + 1) + 13);
});

test('code128 refuses what Code-128C cannot carry', (t) => {
  t.throws(() => code128('123'), { instanceOf: RangeError });
  t.throws(() => code128('12a4'), { instanceOf: RangeError });
});

test('bars keeps the bar positions and barcodeSvg draws one rectangle per bar', (t) => {
  const code = code128(KEY);
  const b = bars(code);
  t.is(b.length, Math.ceil(code.widths.length / 2));
  t.is(b[0]!.x, 0);
  const svg = barcodeSvg(KEY);
  t.is((svg.match(/M\d+ 0h/g) ?? []).length, b.length);
  t.true(svg.includes(`viewBox="0 0 ${code.modules} 40"`));
});
