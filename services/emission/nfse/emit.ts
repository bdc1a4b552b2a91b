import { DomainError } from '../../../lib/errors/index.js';
import { toCents } from '../../../lib/money.js';
import { brasiliaDateTime, brasiliaDay } from '../../../lib/emission/build-context.js';
import { nfseEmissionView, type NfseRecord } from '../../../lib/emission/nfse/document.js';
import { checkNfse } from '../../../lib/nfse/check.js';
import { draftDps, finishDps } from '../../../lib/nfse/document.js';
import { checkAdesaoMunicipio, SEFIN_MUNICIPIO_NAO_ADERENTE } from '../../../lib/nfse/rules/municipio.js';
import { validateNfseBody } from '../../../lib/nfse/validate.js';
import type { IssuerSnapshot } from '../../../lib/issuer/types.js';
import { createSigner } from '../../../lib/sign/signer.js';
import { API_VERSION } from '../../../lib/version.js';
import { issuerWithPreflight, signingMaterial } from '../ports.js';
import { municipalityAdherence } from './sefin-ports.js';
import { reconcileNfse, sefinTarget, transmitNfse, type NfseTransmitDeps } from './transmit.js';
import { bodyFingerprint } from '../../../lib/idempotency/fingerprint.js';
import { validateBeforeSelection } from '../../../lib/emission/before-selection.js';
import { carryOnBound, guarded, keyBinding, type Bound } from '../idempotent-retry.js';
import { checkAssistedTaxationGate } from '../assisted-taxation.js';
import { inFlightPlace, numberInSlot } from '../numbering-slots.js';
import type { Bulkhead } from '../../shared/bulkhead.js';
import { nfseNumberingGroup, type PendingDps } from './numbering.js';

export interface NfseDeps extends NfseTransmitDeps {
  now(): Date;
  /** The issuer's numbering slots, shared with its NF-e (services/emission/numbering-slots.ts); absent: each DPS numbered at once. */
  numbering?: Bulkhead;
  /** The issuer's in-flight places, shared with its NF-e (numbering-slots.ts inFlightPlace); absent: no bound. */
  inFlight?: Bulkhead;
  /** Told of a fault of ours after a DPS was numbered (its answer no longer carries the stack). */
  reportFault?(err: unknown, nfseId: string): void;
}

export interface NfseRequest {
  partnerId: string;
  keyKind: 'live' | 'test' | null;
  body: unknown;
  idempotencyKey: string | null;
  /** No earlier request used the key (services/shared/caller.ts idempotencyFirstUse). */
  keyFirstUse?: boolean;
}

/** verAplic (1-20 characters): the application that wrote the DPS. */
const VER_APLIC = `fiscal-api ${API_VERSION}`;

/**
 * One DPS, in the order of issue 16: unknown fields or a malformed issuerId (400, validated once
 * before the selection: lib/emission/before-selection.ts) → issuer (400 without issuerId, 404,
 * 403) → the rest of strict validation (400) → rules 2-10 (422) → preflight (422: certificate,
 * inscrição municipal, address) → municipality adherence (422 when confirmed nao_aderente) → the
 * DPS built and XSD-checked with a provisional nDPS (XML_FORA_DO_ESQUEMA before any number is
 * taken: lib/nfse/document.ts draftDps) → one of the issuer's numbering slots (503
 * EMISSOR_SOBRECARREGADO beyond the bound, before any nDPS) → nDPS under the sequence row lock
 * (with the DPS of its série that waited with it), written into the draft and signed in the same
 * transaction and committed already TRANSMITTING with idDps → Sefin → outcome with its webhook in
 * the outbox.
 *
 * The Idempotency-Key is bound to the DPS in its numbering transaction, as for NF-e
 * (services/emission/idempotent-retry.ts): a retry — after a 5xx, a crash, a timeout — answers that
 * DPS (carrying it on when its first attempt died) and never numbers another; every failure after
 * the numbering names it in `details.nfseId`.
 */
export async function emitNfse(deps: NfseDeps, req: NfseRequest): Promise<ReturnType<typeof nfseEmissionView>> {
  const key = req.idempotencyKey;
  const fingerprint = key ? bodyFingerprint(req.body) : null;
  const { answerBound, boundMeanwhile } = keyBinding(key, (k) => deps.nfse.findByIdempotencyKey(req.partnerId, k),
    (found, k) => guarded(deps.reportFault, () => found.doc, () => continueBoundNfse(deps, found, k, fingerprint!), 'nfseId'), req.keyFirstUse);
  const answered = await answerBound();
  if (answered) return answered;

  const sent = req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};
  const issuerId = typeof sent.issuerId === 'string' && sent.issuerId ? sent.issuerId : undefined;
  // Unknown keys and a malformed issuerId answer before the selection (lib/emission/before-selection.ts).
  const validated = await validateBeforeSelection(() => validateNfseBody(req.body), req.body);
  const { issuer, preflight, certificateFingerprint } = await issuerWithPreflight(deps.calls, { partnerId: req.partnerId, issuerId, model: 'NFSe', keyKind: req.keyKind });
  const body = validated();
  // resolverTributacao (rule 10) is the assisted-taxation module: gated like goods, before the rules read the issuer record.
  if (body.resolverTributacao === true) await checkAssistedTaxationGate(deps.calls, req.partnerId, issuer);
  // The rules read the issuer's regime (crt → opSimpNac, rule 7): without it that refusal goes first.
  if (preflight && Array.isArray(preflight.data?.camposFaltando) && (preflight.data!.camposFaltando as string[]).includes('crt')) throw preflight;
  const now = deps.now();
  const { dps, avisos } = checkNfse(body, issuer, { mesAtual: brasiliaDay(now).slice(0, 7) });
  if (preflight) throw preflight;

  // Rule 9, judged for the emitter's municipality (cLocEmi): Sefin's E0037 names it.
  const environment = issuer.ambienteFiscal;
  const codigoMunicipio = issuer.endereco.codigoMunicipio;
  const known = await adherenceOf(deps, issuer, codigoMunicipio);
  checkAdesaoMunicipio(codigoMunicipio, known.adesao, known.mensagem ?? undefined);

  const signer = createSigner(await signingMaterial(deps.calls, issuer.id, certificateFingerprint));
  const base = {
    issuerId: issuer.id, serie: dps.serie, environment, partnerId: req.partnerId, keyKind: req.keyKind ?? 'jwt' as const, codigoMunicipio,
    amountCents: toCents(dps.valores.valorServicos), requestBody: req.body, idempotencyKey: key, idempotencyFingerprint: fingerprint, emittedAt: now, avisos,
  };
  // From before its nDPS is taken until Sefin answered, the DPS holds one of its issuer's in-flight
  // places, shared with its NF-e (numbering-slots.ts): an overload waits, or is refused, before numbering.
  return inFlightPlace(deps.inFlight, issuer.id, async () => {
    // Built and checked before the claim, so the série's lock spans only the renumbering and the signature (issue 18).
    const draft = draftDps(dps, { issuer, dhEmi: brasiliaDateTime(now), tpAmb: environment, verAplic: VER_APLIC }, signer);
    let doc: NfseRecord;
    /** The signed DPS stored with the new row: kept to transmit, not read back. */
    let storedXml = '';
    const pending: PendingDps = {
      doc: base,
      build: async (nDPS) => {
        const signed = await finishDps(draft, nDPS, signer);
        storedXml = signed.xml; // finished again (a retried transaction, a missed forecast): the last one is stored
        return { xml: signed.xml, idDps: signed.id };
      },
    };
    try {
      // In one of the issuer's numbering slots (503 EMISSOR_SOBRECARREGADO before any nDPS when
      // overloaded), numbered with the DPS of its série that waited with it (issue 18).
      doc = await numberInSlot(deps.numbering, issuer.id, nfseNumberingGroup(base), pending,
        (all) => deps.nfse.createNumberedGroup(all));
    } catch (err) {
      return boundMeanwhile(err);
    }

    // The numbering committed it TRANSMITTING, its attempt 1 started (NfseStore.createNumbered).
    return guarded(deps.reportFault, () => doc, async () => respondNfse(await transmitNfse(deps, doc, storedXml, sefinTarget(doc))), 'nfseId');
  });
}

/** The NFS-e way of carrying a bound DPS on (services/emission/idempotent-retry.ts): consulted by idDps, or its stored DPS sent. */
function continueBoundNfse(deps: NfseDeps, bound: Bound<NfseRecord>, key: string, fingerprint: string) {
  return carryOnBound(bound, key, fingerprint, deps.now(), {
    answer: respondNfse,
    consult: async (doc) => respondNfse(await reconcileNfse(deps, doc)),
    async transmitStored(doc) {
      // Started only if nothing else did meanwhile (expected attempt 0); otherwise that one's state.
      const claim = await deps.nfse.markTransmitting(doc.id, 'retry', 0);
      if (claim.kind !== 'started') return respondNfse(claim.doc);
      return respondNfse(await transmitNfse(deps, claim.doc, (await deps.nfse.xmlOf(doc.id))!.dps));
    },
  });
}

/**
 * Adherence known for the municipality; when never asked, Sefin's municipal parameters are asked
 * once and a conclusive answer is stored. No answer stays `desconhecido`, which never refuses.
 */
async function adherenceOf(deps: NfseDeps, issuer: IssuerSnapshot, codigoMunicipio: string) {
  const known = await deps.nfse.adesao(codigoMunicipio, issuer.ambienteFiscal);
  if (known.adesao !== 'desconhecido') return known;
  const asked = await municipalityAdherence(deps.calls, { issuerId: issuer.id, ambiente: issuer.ambienteFiscal }, codigoMunicipio);
  if (asked.kind === 'failed') return known;
  const mensagem = asked.kind === 'nao_aderente' ? asked.mensagem : null;
  await deps.nfse.recordAdesao(codigoMunicipio, issuer.ambienteFiscal, asked.kind, mensagem);
  return { adesao: asked.kind, mensagem };
}


/**
 * 201 for anything that is not a Sefin refusal; a refusal is API.md's 400 BAD_REQUEST with erros[]
 * verbatim, and an E0037 also keeps its message in `details.mensagemSefin` (rule 9).
 */
export function respondNfse(doc: NfseRecord): ReturnType<typeof nfseEmissionView> {
  if (doc.status === 'REJECTED') {
    const erros = doc.erros ?? [];
    const e0037 = erros.find((e) => e.codigo === SEFIN_MUNICIPIO_NAO_ADERENTE);
    throw new DomainError('BAD_REQUEST', {
      erros, nfseId: doc.id, status: doc.status, idDps: doc.idDps,
      ...(e0037 ? { mensagemSefin: e0037.descricao, codigoMunicipio: doc.codigoMunicipio } : {}),
    }, doc.motivo ?? 'DPS rejeitada pela Sefin Nacional.');
  }
  return nfseEmissionView(doc);
}
