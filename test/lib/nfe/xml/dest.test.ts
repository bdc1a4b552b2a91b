import test from 'ava';
import { buildDest, HOMOLOGACAO_XNOME } from '../../../../lib/nfe/xml/dest.js';
import { aNfce, aNfe } from '../../../support/checked-note-factories.js';

test('buildDest writes the homologation literal name and IE only for contributors', (t) => {
  const note = aNfe();
  t.true(buildDest(note, 2)!.includes(`<xNome>${HOMOLOGACAO_XNOME}</xNome>`));
  t.true(buildDest(note, 1)!.includes('<xNome>CLIENTE CONTRIBUINTE SA</xNome>'));
  const nonContributor = aNfe(undefined, { destinatario: { cnpjCpf: '52998224725', nome: 'ANA', indicadorIE: 9, ie: '123', endereco: (note.destinatario as any).endereco } });
  t.regex(buildDest(nonContributor, 1)!, /^<dest><CPF>52998224725<\/CPF>.*<indIEDest>9<\/indIEDest><\/dest>$/);
});

test('buildDest writes the NFC-e consumer without address, and nothing when unidentified', (t) => {
  t.is<string | undefined, string | undefined>(buildDest(aNfce(), 1), undefined);
  t.is<string | undefined, string | undefined>(buildDest(aNfce(undefined, { destinatario: { cnpjCpf: '52998224725', nome: 'JOAO', indicadorIE: 9 } }), 1), '<dest><CPF>52998224725</CPF><xNome>JOAO</xNome><indIEDest>9</indIEDest></dest>');
});
