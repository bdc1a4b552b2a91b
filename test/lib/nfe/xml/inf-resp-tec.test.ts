import test from 'ava';
import { buildInfRespTec } from '../../../../lib/nfe/xml/inf-resp-tec.js';
import { RESP_TEC } from '../../../support/checked-note-factories.js';

test('buildInfRespTec writes the platform technician', (t) => {
  t.is<string | undefined, string | undefined>(buildInfRespTec(RESP_TEC), '<infRespTec><CNPJ>11222333000181</CNPJ><xContato>Suporte Plataforma Fiscal</xContato><email>suporte@plataforma.example</email><fone>11999990000</fone></infRespTec>');
});
