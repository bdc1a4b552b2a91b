import { PROFILE_DEFAULTS, type IssuerProfile, type IssuerRecord } from '../../../lib/issuer/model.js';

/** A complete issuer record as lib/issuer functions see it. */
export function anIssuerRecord(over: Omit<Partial<IssuerRecord>, 'profile'> & { profile?: Partial<IssuerProfile> } = {}): IssuerRecord {
  const { profile, ...rest } = over;
  return {
    id: '6f1c2d3e-4a5b-4c6d-8e7f-000000000001',
    partnerId: 'p1',
    cnpj: '11222333000181',
    ambienteFiscal: 2,
    sandbox: false,
    certificate: { subject: 'CN=EMPRESA:11222333000181', serial: '01', notBefore: '2026-01-01T00:00:00.000Z', notAfter: '2027-01-01T00:00:00.000Z', cnpj: '11222333000181' },
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...rest,
    profile: {
      ...PROFILE_DEFAULTS,
      razaoSocial: 'EMPRESA LTDA',
      nomeFantasia: 'EMPRESA',
      ie: '123456789',
      crt: 1,
      csc: 'CSC1',
      cscId: '1',
      endereco: { logradouro: 'Rua A', numero: '1', bairro: 'Centro', codigoMunicipio: '3550308', municipio: 'São Paulo', uf: 'SP', cep: '01001000' },
      ...profile,
    },
  };
}
