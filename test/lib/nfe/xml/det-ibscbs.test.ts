import test from 'ava';
import { buildIbsCbs } from '../../../../lib/nfe/xml/det-ibscbs.js';
import { ibsCbsFor } from '../../../support/checked-note-factories.js';

test('buildIbsCbs writes gIBSCBS without gRed when there is no reduction', (t) => {
  t.is<string | undefined, string | undefined>(buildIbsCbs(ibsCbsFor(10000n)),
    '<IBSCBS><CST>000</CST><cClassTrib>000001</cClassTrib><gIBSCBS><vBC>100.00</vBC>'
    + '<gIBSUF><pIBSUF>0.10</pIBSUF><vIBSUF>0.10</vIBSUF></gIBSUF><gIBSMun><pIBSMun>0.00</pIBSMun><vIBSMun>0.00</vIBSMun></gIBSMun>'
    + '<vIBS>0.10</vIBS><gCBS><pCBS>0.90</pCBS><vCBS>0.90</vCBS></gCBS></gIBSCBS></IBSCBS>');
});

test('buildIbsCbs writes the nominal rate and gRed (pRedAliq, pAliqEfet) when pRedAliq > 0', (t) => {
  const xml = buildIbsCbs(ibsCbsFor(10000n, true));
  t.true(xml.includes('<gIBSUF><pIBSUF>0.10</pIBSUF><gRed><pRedAliq>60.00</pRedAliq><pAliqEfet>0.0400</pAliqEfet></gRed><vIBSUF>0.04</vIBSUF></gIBSUF>'));
  t.true(xml.includes('<gCBS><pCBS>0.90</pCBS><gRed><pRedAliq>60.00</pRedAliq><pAliqEfet>0.3600</pAliqEfet></gRed><vCBS>0.36</vCBS></gCBS>'));
});

test('buildIbsCbs treats pRedAliq 0 as no reduction', (t) => {
  const r = ibsCbsFor(10000n);
  r.cbs = { ...r.cbs, pRedAliq: '0.00', pNominal: '0.90' };
  t.false(buildIbsCbs(r).includes('gRed'));
});

test('buildIbsCbs writes no gIBSCBS for immunity/exemption CSTs (410, 400)', (t) => {
  t.is<string | undefined, string | undefined>(buildIbsCbs({ ...ibsCbsFor(0n), cst: '410', cClassTrib: '410001' }), '<IBSCBS><CST>410</CST><cClassTrib>410001</cClassTrib></IBSCBS>');
});
