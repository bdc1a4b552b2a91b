import test from 'ava';
import { buildEmit } from '../../../../lib/nfe/xml/emit.js';
import { anIssuer } from '../../../support/checked-note-factories.js';

test('buildEmit writes IM and CNAE only with a municipal registration', (t) => {
  t.false(buildEmit(anIssuer()).includes('<IM>'));
  t.true(buildEmit(anIssuer({ inscricaoMunicipal: '1234567', cnae: '4751201' })).includes('<IE>123456789012</IE><IM>1234567</IM><CNAE>4751201</CNAE><CRT>3</CRT>'));
});
