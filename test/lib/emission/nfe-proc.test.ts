import test from 'ava';
import { assembleNfeProc } from '../../../lib/emission/nfe-proc.js';

test('assembleNfeProc wraps the signed NFe and protNFe byte for byte', (t) => {
  const nfe = '<NFe xmlns="http://www.portalfiscal.inf.br/nfe"><infNFe Id="NFe1"/></NFe>';
  const prot = '<protNFe versao="4.00"><infProt/></protNFe>';
  t.is(assembleNfeProc(`<?xml version="1.0" encoding="UTF-8"?>${nfe}`, prot),
    `<?xml version="1.0" encoding="UTF-8"?><nfeProc xmlns="http://www.portalfiscal.inf.br/nfe" versao="4.00">${nfe}${prot}</nfeProc>`);
});

test('assembleNfeProc fails loudly on something that is not an NFe or a protNFe', (t) => {
  t.throws(() => assembleNfeProc('<x/>', '<protNFe/>'), { message: /does not start with <NFe/ });
  t.throws(() => assembleNfeProc('<NFe/>', '<retConsSitNFe/>'), { message: /protNFe/ });
});
