import test from 'ava';
import { buildTransp } from '../../../../lib/nfe/xml/transp.js';

test('buildTransp defaults modFrete to 9 and writes carrier, vehicle and volumes', (t) => {
  t.is<string | undefined, string | undefined>(buildTransp(undefined), '<transp><modFrete>9</modFrete></transp>');
  t.is<string | undefined, string | undefined>(buildTransp({ modFrete: 1, transportador: { cnpjCpf: '52998224725', nome: 'JOSE' }, veiculo: { placa: 'ABC1234', uf: 'SP' }, volumes: [{ quantidade: 2, pesoBruto: 1.5 }] }),
    '<transp><modFrete>1</modFrete><transporta><CPF>52998224725</CPF><xNome>JOSE</xNome></transporta><veicTransp><placa>ABC1234</placa><UF>SP</UF></veicTransp><vol><qVol>2</qVol><pesoB>1.500</pesoB></vol></transp>');
});
