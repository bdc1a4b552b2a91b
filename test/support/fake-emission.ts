import type { ServiceSchema } from 'moleculer';

/**
 * A stand-in for v1.emission in auth's tests: partnerActivity answers "has documents" for the
 * partner ids in `withDocuments` (auth refuses their deactivation). The real flag is tested
 * end to end in test/e2e/partner-deactivation.test.ts.
 */
export const withDocuments = new Set<string>();

export const FakeEmissionActivity: ServiceSchema = {
  name: 'emission',
  version: 1,
  actions: {
    partnerActivity: {
      visibility: 'public',
      handler(ctx: any) {
        const hasDocuments = withDocuments.has(ctx.params.partnerId);
        return { partnerId: ctx.params.partnerId, hasDocuments, firstDocumentAt: hasDocuments ? new Date(0).toISOString() : null };
      },
    },
  },
};
