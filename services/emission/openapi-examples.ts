/**
 * Request examples of the NF-e and NFC-e emission routes in the OpenAPI document: the README's
 * walk-through bodies, so a generated client's docs and the curl examples agree.
 */
const item = {
  codigo: 'SKU-001', descricao: 'Camiseta de algodao', ncm: '61091000', cfop: '5102', unidade: 'UN', quantidade: 2, valorUnitario: 50,
  icms: { origem: 0, cst: '00', vBC: 100, pICMS: 18, vICMS: 18 },
  pis: { cst: '01', baseCalculo: 100, aliquota: 1.65, valor: 1.65 },
  cofins: { cst: '01', baseCalculo: 100, aliquota: 7.6, valor: 7.6 },
};

export const NFE_REQUEST_EXAMPLE = {
  destinatario: {
    cnpjCpf: '52998224725', nome: 'Maria da Silva',
    endereco: { logradouro: 'Rua das Flores', numero: '123', bairro: 'Centro', codigoMunicipio: '3550308', municipio: 'Sao Paulo', uf: 'SP', cep: '01001000' },
  },
  items: [item],
  pagamentos: [{ forma: '01', valor: 100 }],
};

export const NFCE_REQUEST_EXAMPLE = {
  destCPF: '52998224725',
  items: [{ ...item, quantidade: 1, valorUnitario: 100 }],
  pagamentos: [{ forma: '01', valor: 100 }],
};

export const NFE_BATCH_REQUEST_EXAMPLE = { notas: [NFE_REQUEST_EXAMPLE, { ...NFE_REQUEST_EXAMPLE, naturezaOperacao: 'Venda de Mercadoria' }] };
