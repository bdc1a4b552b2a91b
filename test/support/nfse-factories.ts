import type { NfseIssuer } from '../../lib/nfse/types.js';

/** What an NFS-e provider adds to aCompleteIssuer (POST /v1/companies): Simples ME/EPP, its inscrição municipal and e-mail. */
export const NFSE_ISSUER = { crt: 1, inscricaoMunicipal: '12345678', email: 'fiscal@prestador.com.br' } as const;

/** A complete, valid POST /v1/nfse body (Simples ME/EPP, ISS not retained, CNPJ taker). */
export function aValidNfseBody(over: Record<string, unknown> = {}): any {
  return {
    issuerId: '0b7c4a52-8f0e-4b8e-9a55-2f1d8e6c3a10',
    dpsNacional: { opSimpNac: 3, regApTribSN: 1, cTribNac: '010101', tribISSQN: 1, pTotTribSN: 6 },
    competencia: '2026-11-22',
    tomador: {
      cnpjCpf: '39847728000199',
      razaoSocial: 'CLIENTE DE SERVICOS LTDA',
      email: 'financeiro@cliente.com.br',
      telefone: '2132332300',
      endereco: { logradouro: 'AV RIO BRANCO', numero: '123', bairro: 'CENTRO', codigoMunicipio: '3303302', cep: '24020077' },
    },
    servico: { valorServicos: 1500, discriminacao: 'Desenvolvimento de sistemas sob encomenda', codigoNBS: '115021000', aliquotaIss: 2 },
    ...over,
  };
}

/** An NFS-e issuer in São Paulo, Simples Nacional (crt 1). */
export function anNfseIssuer(over: Partial<NfseIssuer> = {}): NfseIssuer {
  return {
    cnpj: '12345678000195',
    crt: 1,
    inscricaoMunicipal: '12345678',
    email: 'fiscal@prestador.com.br',
    endereco: {
      logradouro: 'Rua das Flores', numero: '100', complemento: 'Sala 2', bairro: 'Centro',
      codigoMunicipio: '3550308', municipio: 'Sao Paulo', uf: 'SP', cep: '01001000', telefone: '1133334444',
    },
    ...over,
  };
}
