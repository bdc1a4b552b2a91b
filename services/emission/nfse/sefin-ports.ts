import type {
  DpsConsultResult, MunicipalityAdherenceResult, NfseConsultResult, NfseEventResult, NfseSubmitResult, SefinTarget,
} from '../../../lib/sefin/results.js';
import { callFailure, errorText, type ActionCaller } from '../action-caller.js';

/*
 * The v1.sefaz actions the NFS-e path calls (the Sefin Nacional client, lib/sefin/results.ts is
 * the contract). A call that throws is mapped to the typed union as for NF-e
 * (services/emission/ports.ts): no node to take it certainly sent nothing; anything else (broker
 * timeout, node lost mid-call) may have reached Sefin and is consulted by idDps, never resent blindly.
 */

/** POST {base}/nfse with the signed DPS; sent once, never retried by the broker. */
export async function submitDps(c: ActionCaller, target: SefinTarget, signedDpsXml: string, idDps: string): Promise<NfseSubmitResult> {
  try {
    return await c.call<NfseSubmitResult>('v1.sefaz.nfseSubmit', { ...target, signedDpsXml, idDps }, { retries: 0 });
  } catch (err) {
    return callFailure(err);
  }
}

/** GET {base}/dps/{idDps}: the reconciliation query. */
export async function consultDps(c: ActionCaller, target: SefinTarget, idDps: string): Promise<DpsConsultResult> {
  try {
    return await c.call<DpsConsultResult>('v1.sefaz.nfseConsultDps', { ...target, idDps });
  } catch (err) {
    return { kind: 'failed', reason: 'connect', detail: errorText(err) };
  }
}

/** GET {base}/nfse/{chaveAcesso} and its e101101: is this NFS-e canceled at Sefin (settles a lost cancellation answer). */
export async function consultNfse(c: ActionCaller, target: SefinTarget, chaveAcesso: string): Promise<NfseConsultResult> {
  try {
    return await c.call<NfseConsultResult>('v1.sefaz.nfseConsult', { ...target, chaveAcesso });
  } catch (err) {
    return { kind: 'failed', reason: 'connect', detail: errorText(err) };
  }
}

/** POST {base}/nfse/{chaveAcesso}/eventos with the signed pedRegEvento; sent once. */
export async function sendNfseEvent(c: ActionCaller, target: SefinTarget, chaveAcesso: string, signedEventXml: string): Promise<NfseEventResult> {
  try {
    return await c.call<NfseEventResult>('v1.sefaz.nfseEvent', { ...target, chaveAcesso, signedEventXml }, { retries: 0 });
  } catch (err) {
    return callFailure(err);
  }
}

/** Municipal parameters: does the municipality adhere to the national standard in this environment. */
export async function municipalityAdherence(c: ActionCaller, target: SefinTarget, codigoMunicipio: string): Promise<MunicipalityAdherenceResult> {
  try {
    return await c.call<MunicipalityAdherenceResult>('v1.sefaz.nfseMunicipality', { ...target, codigoMunicipio });
  } catch (err) {
    return { kind: 'failed', reason: 'connect', detail: errorText(err) };
  }
}
