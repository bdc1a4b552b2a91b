import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSignedCancelEvent, type CancelEventInput } from '../../../../lib/nfse/xml/cancel-event.js';
import { NFSE_SCHEMAS } from '../../../../lib/xml/schemas.js';
import { createSigner } from '../../../../lib/sign/signer.js';
import { verifyXmlSignature } from '../../../../lib/sign/verify.js';
import { testSigningMaterial } from '../../../support/checked-note-factories.js';

const signer = createSigner(testSigningMaterial());
const CHAVE = '35503082211222333000181000000000000126110000000001';
const input = (over: Partial<CancelEventInput> = {}): CancelEventInput => ({
  tpAmb: 2, verAplic: 'fiscal-api 2.1.0', dhEvento: '2026-11-22T17:40:00-03:00', autor: '11222333000181', chaveAcesso: CHAVE,
  cMotivo: 1, xMotivo: 'Erro na emissão: valor & tomador <errados>', ...over,
});

test('buildSignedCancelEvent writes e101101 in the XSD order with the PRE+chave+tipo Id', (t) => {
  const { xml, id } = buildSignedCancelEvent(input(), signer);
  t.is(id, `PRE${CHAVE}101101`);
  t.true(xml.startsWith(`<pedRegEvento xmlns="http://www.sped.fazenda.gov.br/nfse" versao="1.01"><infPedReg Id="${id}"><tpAmb>2</tpAmb><verAplic>fiscal-api 2.1.0</verAplic><dhEvento>2026-11-22T17:40:00-03:00</dhEvento><CNPJAutor>11222333000181</CNPJAutor><chNFSe>${CHAVE}</chNFSe><e101101><xDesc>Cancelamento de NFS-e</xDesc><cMotivo>1</cMotivo><xMotivo>Erro na emissão: valor &amp; tomador &lt;errados&gt;</xMotivo></e101101></infPedReg><Signature`), xml);
});

test('buildSignedCancelEvent: the signature verifies and xmllint accepts the official pedRegEvento XSD', (t) => {
  const { xml } = buildSignedCancelEvent(input({ autor: '52998224725', cMotivo: 9 }), signer);
  t.true(verifyXmlSignature(xml).valid);
  t.regex(xml, /<CPFAutor>52998224725<\/CPFAutor>/);
  const dir = mkdtempSync(join(tmpdir(), 'evt-'));
  try {
    writeFileSync(join(dir, 'e.xml'), xml);
    t.notThrows(() => execFileSync('xmllint', ['--noout', '--schema', NFSE_SCHEMAS.pedRegEvento, join(dir, 'e.xml')], { stdio: 'pipe' }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('buildSignedCancelEvent refuses a motive shorter than TSMotivo allows with XML_FORA_DO_ESQUEMA', (t) => {
  const err = t.throws(() => buildSignedCancelEvent(input({ xMotivo: 'curto' }), signer)) as any;
  t.is(err.type, 'XML_FORA_DO_ESQUEMA');
});
