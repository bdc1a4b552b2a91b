import test from 'ava';
import { nbsDescription, tribNacDescription } from '../../../../lib/sefin/simulator/service-list.js';

test('tribNacDescription reads the national service list (Anexo B); headings and unknown codes have none', (t) => {
  t.is(tribNacDescription('010101'), 'Análise e desenvolvimento de sistemas.');
  t.is(tribNacDescription('010100'), undefined);
  t.is(tribNacDescription('999999'), undefined);
});

test('nbsDescription takes the 9-digit code the DPS writes', (t) => {
  t.is(nbsDescription('115021000'), 'Serviços de projeto, desenvolvimento e instalação de aplicativos e programas não personalizados (não customizados)');
  t.is(nbsDescription('1.1502.10.00'), undefined);
});
