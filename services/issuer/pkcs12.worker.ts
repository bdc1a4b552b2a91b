import { acceptCertificate, readPkcs12, type ParsedCertificate } from '../../lib/issuer/certificate.js';
import { refusalOf, type WorkerRefusal } from '../shared/worker-refusal.js';

/** One job of services/issuer/pkcs12-pool.ts: open a stored A1, or check an upload for an issuer. */
export type Pkcs12Job =
  | { op: 'ping' }
  | { op: 'read'; pfx: Uint8Array; password: string }
  | { op: 'accept'; pfx: Uint8Array; password: string; issuerCnpj: string; nowMs: number };

/** A refusal crosses the thread boundary as plain data (services/shared/worker-refusal.ts). */
export type Pkcs12Outcome =
  | { ok: true; certificate: ParsedCertificate }
  | { ok: true; certificate?: undefined }
  | { ok: false; refusal: WorkerRefusal };

/** Runs in a worker thread (piscina): forge's key derivations never block the service's event loop. */
export default function openPkcs12(job: Pkcs12Job): Pkcs12Outcome {
  if (job.op === 'ping') return { ok: true }; // the thread is loaded (services/issuer/pkcs12-pool.ts)
  const pfx = Buffer.from(job.pfx.buffer, job.pfx.byteOffset, job.pfx.byteLength);
  try {
    const certificate = job.op === 'accept' ? acceptCertificate(pfx, job.password, job.issuerCnpj, new Date(job.nowMs)) : readPkcs12(pfx, job.password);
    return { ok: true, certificate };
  } catch (err) {
    return { ok: false, refusal: refusalOf(err) };
  }
}
