import test from 'ava';
import { normalizeLc116, serviceItem } from '../../../../lib/nfse/servico/catalog.js';
import { resolveServico, type ResolveServicoIssuer } from '../../../../lib/nfse/servico/resolve.js';

const issuer = (over: Partial<ResolveServicoIssuer> = {}): ResolveServicoIssuer => ({ crt: 1, endereco: { codigoMunicipio: '3550308' }, ...over });

test('normalizeLc116 accepts 1.07, 01.07 and 0107; refuses what cannot be an item', (t) => {
  t.is(normalizeLc116('1.07'), '01.07');
  t.is(normalizeLc116('01.07'), '01.07');
  t.is(normalizeLc116('0107'), '01.07');
  t.is(normalizeLc116('1.7'), undefined);
  t.is(normalizeLc116('abc'), undefined);
});

test('serviceItem reads Anexo B (desdobros) and Anexo VIII (NBS with indOp and cClassTrib) for 01.01', (t) => {
  const item = serviceItem('01.01')!;
  t.is(item.descricao, 'Análise e desenvolvimento de sistemas.');
  t.deepEqual(item.desdobros, [{ codigo: '010101', descricao: 'Análise e desenvolvimento de sistemas.' }]);
  t.true(item.nbs.length > 1);
  t.like(item.nbs[0], { codigo: '115021000', indOp: '100301', localIncidencia: 'Domicílio principal do adquirente', cClassTrib: '000001' });
  t.like(item.nbs[1], { codigo: '115022000', indOp: '100301', cClassTrib: '000001' });
});

test('resolveServico: the issuer activity gives the only desdobro; the issuer NBS among the candidates wins; Simples pays ISS in the DAS', (t) => {
  const r = resolveServico({}, issuer({ servicoPadraoLc116: '1.01', codigoNbsPadrao: '115022000' }), serviceItem);
  t.like(r, {
    lc116: { item: '01.01', fonte: 'cadastro' },
    cTribNac: { codigo: '010101', fonte: 'Anexo B do SN NFS-e, lista de serviços nacional v1.01 (2026-01-22)', candidatas: [] },
    nbs: { codigo: '115022000', fonte: 'cadastro' },
    ibsCbs: { indOp: '100301', cClassTrib: '000001' },
    iss: { municipio: '3550308', regime: 'simples_nacional', informativo: true },
  });
  t.deepEqual(r.camposNaoResolvidos, []);
});

test('resolveServico: several NBS and no issuer choice leave NBS open with its candidates; normal regime ISS is not informative', (t) => {
  const r = resolveServico({ lc116: '01.01', municipio: '3304557' }, issuer({ crt: 3 }), serviceItem);
  t.is(r.lc116.fonte, 'requisicao');
  t.is(r.nbs.codigo, null);
  t.true(r.nbs.candidatas.some((c) => c.codigo === '115021000'));
  t.like(r.iss, { municipio: '3304557', regime: 'normal', informativo: false });
  t.deepEqual(r.camposNaoResolvidos.map((c) => c.campo), ['codigoNBS']);
});

test('resolveServico: no item anywhere, or an item outside the list, is 422 TRIBUTACAO_NAO_RESOLVIDA', (t) => {
  const none = t.throws(() => resolveServico({}, issuer(), serviceItem)) as any;
  t.deepEqual([none.type, none.data], ['TRIBUTACAO_NAO_RESOLVIDA', { camposNaoResolvidos: [{ campo: 'lc116', motivo: 'informe lc116 ou cadastre servicoPadraoLc116 no emissor' }] }]);
  const unknown = t.throws(() => resolveServico({ lc116: '98.98' }, issuer(), serviceItem)) as any;
  t.deepEqual(unknown.data, { camposNaoResolvidos: [{ campo: 'lc116', motivo: 'item 98.98 inexistente na lista de serviços nacional (Anexo B)' }] });
});

test('resolveServico: tribISSQN is the issuer\'s tribIssqnPadrao when set, else 1, and says which', (t) => {
  const byDefault = resolveServico({ lc116: '01.01' }, issuer(), serviceItem).iss;
  t.deepEqual([byDefault.tribISSQN, byDefault.tribISSQNFonte, byDefault.observacao], [1, 'padrao', 'ISSQN recolhido no DAS mensal (Simples Nacional/MEI): o valor na NFS-e é informativo.']);
  const taxable = resolveServico({ lc116: '01.01' }, issuer({ crt: 3, tribIssqnPadrao: 1 }), serviceItem).iss;
  t.deepEqual([taxable.tribISSQN, taxable.tribISSQNFonte], [1, 'cadastro']);
  const exported = resolveServico({ lc116: '01.01' }, issuer({ crt: 3, tribIssqnPadrao: 3 }), serviceItem).iss;
  t.deepEqual(exported, {
    municipio: '3550308', tribISSQN: 3, tribISSQNFonte: 'cadastro', regime: 'normal', informativo: false,
    observacao: 'ISSQN não devido: exportação de serviço (tribISSQN 3, tribIssqnPadrao do emissor).',
  });
});
