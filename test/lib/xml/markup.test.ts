import test from 'ava';
import { XmlDocument, type XmlElement } from 'libxml2-wasm';
import { elementSpans, markupAt, rawAttributes } from '../../../lib/xml/markup.js';

const TRICKY = `<r a='1' b = "x>y/>">text &amp; more<!-- <c>not</c> --><?pi <d/> ?><![CDATA[<e></f>]]>`
  + `<g/><h\n  i="2"\t/><p:j xmlns:p="urn:p"><k></k ></p:j></r>`;

test('elementSpans finds every element of well-formed text where libxml2 does, whatever the markup around', (t) => {
  const spans = elementSpans(TRICKY)!;
  const doc = XmlDocument.fromString(TRICKY);
  try {
    t.deepEqual(spans.map((s) => s.name), doc.find('//*').map((e) => (e as XmlElement).prefix ? `p:${(e as XmlElement).name}` : (e as XmlElement).name));
  } finally {
    doc.dispose();
  }
  const [r, g, h, j, k] = spans;
  t.deepEqual(TRICKY.slice(r!.start, r!.end), TRICKY);
  t.is(r!.parent, -1);
  t.deepEqual([g, h, j].map((s) => s!.parent), [0, 0, 0]);
  t.is(k!.parent, 3);
  t.is(TRICKY.slice(g!.start, g!.end), '<g/>');
  t.is(g!.startEnd, g!.end);
  t.is(TRICKY.slice(h!.start, h!.end), '<h\n  i="2"\t/>');
  t.is(TRICKY.slice(k!.start, k!.end), '<k></k >');
  t.deepEqual([...rawAttributes(r!.attrs)], [['a', '1'], ['b', 'x>y/>']]);
});

test('elementSpans and markupAt refuse what they do not read: a DOCTYPE, text cut inside markup', (t) => {
  t.is(elementSpans('<!DOCTYPE r [<!ENTITY e "x">]><r>&e;</r>'), null);
  t.is(elementSpans('<r><a></r>'), null, 'an element left open');
  t.is(markupAt('<r><!-- open', 3), null);
  t.deepEqual(markupAt('<a/>', 0), { kind: 'start', name: 'a', attrs: '', empty: true, end: 4 });
  t.deepEqual(markupAt('x</a >', 1), { kind: 'end', name: 'a', end: 6 });
  t.is(markupAt('<a>', 0, 2), null, 'past the end given');
});
