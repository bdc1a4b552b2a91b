import test from 'ava';
import { DOMParser } from '@xmldom/xmldom';
import { C14nCanonicalization } from 'xml-crypto';
import { el, escapeAttr, escapeText, leaf, opt, raw, toXml } from '../../../lib/xml/writer.js';

/** What an independent C14N 1.0 implementation makes of our bytes (must be the same bytes). */
function canonicalize(xml: string): string {
  const doc = new DOMParser().parseFromString(xml, 'text/xml');
  return new C14nCanonicalization().process(doc.documentElement as unknown as Node, {}).toString();
}

test('el writes no whitespace and never an empty-element tag', (t) => {
  t.is(toXml(el('a', [leaf('b', ''), el('c', [])])), '<a><b></b><c></c></a>');
});

test('opt skips undefined, null and empty values but keeps zero', (t) => {
  t.is(toXml(el('a', [opt('x', undefined), opt('y', null), opt('z', ''), opt('n', 0)])), '<a><n>0</n></a>');
});

test('el sorts attributes in code-point order with the namespace declaration first', (t) => {
  const xml = toXml(el('infNFe', [], { versao: '4.00', Id: 'NFe1', a: 'x' }, { xmlns: 'http://www.portalfiscal.inf.br/nfe' }));
  t.is(xml, '<infNFe xmlns="http://www.portalfiscal.inf.br/nfe" Id="NFe1" a="x" versao="4.00"></infNFe>');
  t.is(canonicalize(xml), xml);
});

test('escapeText escapes & < > and CR exactly as C14N does, and leaves quotes and LF', (t) => {
  t.is(escapeText('a & b < c > d " \' \r\n é'), 'a &amp; b &lt; c &gt; d " \' &#xD;\n é');
});

test('escapeAttr escapes & < " TAB LF CR as C14N does, and leaves > and apostrophe', (t) => {
  t.is(escapeAttr('a&b<c>d"e\'f\tg\nh\ri'), 'a&amp;b&lt;c>d&quot;e\'f&#x9;g&#xA;h&#xD;i');
});

test('writer output is already canonical: an independent C14N leaves every byte as it is', (t) => {
  const tricky = 'Açúcar & "aspas" \'apóstrofo\' <tag> > fim\r\nlinha\ttab ÿ ç';
  const xml = toXml(el('root', [
    leaf('t', tricky),
    el('n', [leaf('deep', '1'), opt('none', undefined)], { z: tricky, b: '2', A: '1' }),
    raw('r', toXml(leaf('x', 'y'))),
  ], undefined, { xmlns: 'urn:test' }));
  t.is(canonicalize(xml), xml);
});

test('writer refuses characters XML 1.0 cannot carry', (t) => {
  t.throws(() => leaf('a', 'bell\u0007'), { instanceOf: RangeError });
  t.throws(() => el('a', [], { x: 'nul\u0000' }), { instanceOf: RangeError });
});
