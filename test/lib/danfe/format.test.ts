import test from 'ava';
import {
  formatCep, formatCnpjCpf, formatDate, formatDateTime, formatDecimal, formatMoney, formatNumber, formatPhone, formatSerie, groupAccessKey,
} from '../../../lib/danfe/format.js';

test('groupAccessKey prints the 44 digits in 11 groups of 4', (t) => {
  const key = '35261112345678000195550010000012341876543210'.slice(0, 44);
  const grouped = groupAccessKey(key);
  t.is(grouped, '3526 1112 3456 7800 0195 5500 1000 0012 3418 7654 3210');
  t.is(grouped.split(' ').length, 11);
  t.is(grouped.replace(/ /g, ''), key);
});

test('formatMoney prints decimal strings the Brazilian way without floats', (t) => {
  t.is(formatMoney('1234567.5'), '1.234.567,50');
  t.is(formatMoney('0.00'), '0,00');
  t.is(formatMoney('9999999999999.99'), '9.999.999.999.999,99');
  t.is(formatMoney(''), '');
});

test('formatDecimal pads to the column precision and keeps extra significant decimals', (t) => {
  t.is(formatDecimal('10.0000', 4), '10,0000');
  t.is(formatDecimal('18.9000000000', 2), '18,90');
  t.is(formatDecimal('1.2345', 2), '1,2345');
  t.is(formatDecimal('1500', 3), '1.500,000');
});

test('documents, CEP, phone, number and series wear their masks', (t) => {
  t.is(formatCnpjCpf('12345678000195'), '12.345.678/0001-95');
  t.is(formatCnpjCpf('12345678909'), '123.456.789-09');
  t.is(formatCep('01001000'), '01001-000');
  t.is(formatPhone('1133334444'), '(11) 3333-4444');
  t.is(formatNumber(1234), '000.001.234');
  t.is(formatSerie(1), '001');
});

test('dates are read from the XML local time, never converted', (t) => {
  t.is(formatDate('2026-11-22T23:40:00-03:00'), '22/11/2026');
  t.is(formatDateTime('2026-11-22T23:40:00-03:00'), '22/11/2026 23:40:00');
  t.is(formatDate('2026-12-22'), '22/12/2026');
});
