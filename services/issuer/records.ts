import type { IssuerRecord, IssuerProfile, CertificateSummary } from '../../lib/issuer/model.js';
import type { Ambiente } from '../../lib/issuer/types.js';

/** Row of issuer.issuers ↔ IssuerRecord. The sealed PFX and password never leave this service. */
export interface IssuerRow {
  id: string;
  partner_id: string;
  cnpj: string;
  ambiente_fiscal: number;
  sandbox: boolean;
  profile: IssuerProfile | string;
  cert_summary: CertificateSummary | string | null;
  cert_pfx: string | null;
  cert_password: string | null;
  cert_fingerprint: string | null;
  cert_not_after: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
  deleted_at?: Date | string | null;
}

/** Columns safe to read for everything but signing. */
export const PUBLIC_COLUMNS = ['id', 'partner_id', 'cnpj', 'ambiente_fiscal', 'sandbox', 'profile', 'cert_summary', 'cert_fingerprint', 'created_at', 'updated_at', 'deleted_at'];

const json = <T>(v: T | string): T => (typeof v === 'string' ? JSON.parse(v) as T : v);
const iso = (v: Date | string): string => new Date(v).toISOString();

export function toRecord(row: IssuerRow): IssuerRecord {
  return {
    id: row.id,
    partnerId: row.partner_id,
    cnpj: row.cnpj,
    ambienteFiscal: Number(row.ambiente_fiscal) as Ambiente,
    sandbox: !!row.sandbox,
    profile: json(row.profile),
    certificate: row.cert_summary ? json(row.cert_summary) : null,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/** Associated data binding each sealed secret to its row and purpose. */
export const pfxAad = (issuerId: string) => `issuer:${issuerId}:pfx`;
export const passwordAad = (issuerId: string) => `issuer:${issuerId}:pfx-password`;

export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string };
  return e?.code === '23505' && (!constraint || e.constraint === constraint);
}
