// Plans and their limits (docs/api.md "Limits", docs/decisions.md#administration). The two built-in plans are seeded by
// the first migration; operators add more with `folio admin plan create`.

export interface Plan {
  id: string;
  name: string;
  rate_limit_per_second: number;
  max_concurrent_jobs: number;
  max_pages_per_document: number;
  /** 0 = no ceiling (results may be kept forever). */
  max_retention_seconds: number;
  max_upload_bytes: number;
  /** 0 = uncapped (pay as you go). */
  monthly_request_quota: number;
  /** Options the plan allows; null = every option. */
  features: string[] | null;
}

/** Options that a plan's `features` list can switch on or off. */
export const PLAN_FEATURES = ['markdown', 'embeddings', 'extraction', 'queries'] as const;
export type PlanFeature = (typeof PLAN_FEATURES)[number];

export const BUILTIN_PLANS: Plan[] = [
  {
    id: 'payg',
    name: 'Pay as you go',
    rate_limit_per_second: 50,
    max_concurrent_jobs: 4,
    max_pages_per_document: 2000,
    max_retention_seconds: 0,
    max_upload_bytes: 100 * 1024 * 1024,
    monthly_request_quota: 0,
    features: null,
  },
  {
    id: 'trial',
    name: 'Trial',
    rate_limit_per_second: 5,
    max_concurrent_jobs: 1,
    max_pages_per_document: 50,
    max_retention_seconds: 7 * 24 * 3600,
    max_upload_bytes: 20 * 1024 * 1024,
    monthly_request_quota: 1000,
    features: null,
  },
];

export const DEFAULT_PLAN_ID = 'payg';

export function planAllows(plan: Pick<Plan, 'features'>, feature: PlanFeature): boolean {
  return plan.features === null || plan.features.includes(feature);
}
