import test from 'ava';
import { XmlDocument } from 'libxml2-wasm';
import { parseXml } from '../../../lib/xml/parse.js';

/** lib/xml/parse.ts: the same document as libxml2-wasm's fromString, from Node-encoded bytes. */

test('parseXml reads UTF-8 text as fromString does: names, attributes, accented and astral characters', (t) => {
  const xml = '<?xml version="1.0" encoding="UTF-8"?><NFe xmlns="http://www.portalfiscal.inf.br/nfe"><xNome a="Ação">São Paulo — Coração 😀 &amp; &lt;x&gt;</xNome></NFe>';
  const ours = parseXml(xml);
  const theirs = XmlDocument.fromString(xml);
  try {
    t.is(ours.toString({ format: false }), theirs.toString({ format: false }));
    t.is(ours.get('//n:xNome', { n: 'http://www.portalfiscal.inf.br/nfe' })?.content, 'São Paulo — Coração 😀 & <x>');
  } finally {
    ours.dispose();
    theirs.dispose();
  }
});

test('parseXml refuses malformed text with libxml2\'s error, as fromString does', (t) => {
  t.throws(() => parseXml('<a><b></a>'), { message: /Opening and ending tag mismatch/ });
});

test('a lone surrogate (a JSON escape that is no character) is refused as before, never replaced by U+FFFD', (t) => {
  const lone = `<a>x${String.fromCharCode(0xd800)}y</a>`;
  t.throws(() => parseXml(lone));
  t.throws(() => XmlDocument.fromString(lone));
});
