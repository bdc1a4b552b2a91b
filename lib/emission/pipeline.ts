/**
 * The port between the emission service and the document libraries (validation, rules, totals,
 * XML builder + signer). The service depends on this interface only; the concrete functions are
 * bound in services/emission/pipeline-binding.ts. Every method is pure and synchronous-capable
 * (may return a promise); none may call another service or touch the database.
 */
import type { IssuerSnapshot, SigningMaterial } from '../issuer/types.js';
import type { CheckedNote, Model, NfceBody, NfeBody, NoteTotals } from '../nfe/types.js';
import type { BuildStepHook, NfeDraft } from '../nfe/document.js';
import type { ApproximateTaxRate } from '../approximate-tax/rate.js';

export type DocumentBody = NfeBody | NfceBody;

/** What the builder needs besides the note: identity of this document, fixed before building. */
export interface BuildContext {
  issuer: IssuerSnapshot;
  model: Model;
  series: number;
  number: number;
  /** 8-digit random code of the key (cNF); stored, so a resend rebuilds the same key. */
  cnf: string;
  /** tpEmis: 1 normal; 9 NFC-e offline contingency (lib/emission/contingency.ts). */
  tpEmis: number;
  /** dhCont and xJust, for tpEmis 9. */
  contingency?: { startedAt: Date; justificativa: string };
  /** dhEmi; its year and month are the key's AAMM. */
  emittedAt: Date;
  /** 1 produção, 2 homologação (tpAmb). */
  ambiente: 1 | 2;
}

export interface BuiltDocument {
  /** Signed NFe, XSD-valid, as it will be transmitted. */
  xml: string;
  accessKey: string;
  digestValue: string;
  /** NFC-e QR code text, when the model has one. */
  qrCode?: string;
}

export interface DocumentPipeline {
  /**
   * Strict request validation with defaults applied; throws DomainError VALIDATION_ERROR (400)
   * with `errors[]` and `details.camposDesconhecidos` (paths from the note's root; the batch
   * prefixes them with `notas[i]` itself).
   */
  validate(model: Model, body: unknown): DocumentBody | Promise<DocumentBody>;
  /** Business rules with the issuer snapshot; throws the 422 DomainErrors of API.md. */
  check(model: Model, body: DocumentBody, issuer: IssuerSnapshot): CheckedNote | Promise<CheckedNote>;
  /**
   * The note with its Lei 12.741 approximate tax (lib/nfe/approximate-tax.ts), from the rate lines
   * the classification service returned for the issuer's UF and `day`; throws the 422 when an item
   * cannot be valued.
   */
  approximateTax(note: CheckedNote, rates: ReadonlyMap<string, ApproximateTaxRate>, uf: string, day: string): CheckedNote;
  totals(note: CheckedNote): NoteTotals;
  /**
   * Builds, validates against the official XSD (XML_FORA_DO_ESQUEMA) and signs. `onStep`, when
   * given, is told as each step ends (timing only; it never changes the result).
   */
  build(note: CheckedNote, totals: NoteTotals, ctx: BuildContext, material: SigningMaterial, onStep?: BuildStepHook): BuiltDocument | Promise<BuiltDocument>;
  /**
   * `build` in two halves around the numbering lock (lib/nfe/document.ts draftNfe): `draft`, before
   * a number is taken, builds with the provisional identity of `ctx` and throws every refusal
   * `build` throws; `finish`, under the lock, gives the draft its number and cNF and signs it. The
   * result is the document `build` writes for that number and cNF.
   */
  draft(note: CheckedNote, totals: NoteTotals, ctx: BuildContext, material: SigningMaterial, onStep?: BuildStepHook): DraftDocument | Promise<DraftDocument>;
  finish(draft: DraftDocument, number: number, cnf: string, material: SigningMaterial, onStep?: BuildStepHook): BuiltDocument | Promise<BuiltDocument>;
}

/** What `draft` prepared: the inputs, and the built and checked NFe when the pipeline keeps one. */
export interface DraftDocument {
  readonly note: CheckedNote;
  readonly totals: NoteTotals;
  /** The provisional context. */
  readonly ctx: BuildContext;
  /** lib/nfe's draft; null when the pipeline rebuilds in `finish` (test stand-ins). */
  readonly nfe: NfeDraft | null;
}
