// GET /account: the key, its organization and plan, credit and limits.
import type { FastifyPluginAsync } from 'fastify';
import { availableCredit } from '../../store/documents.js';
import type { AppDeps } from '../deps.js';
import { errorResponses } from '../schemas/common.js';
import { Account } from '../schemas/resources.js';

export const accountRoutes =
  (deps: AppDeps): FastifyPluginAsync =>
  async (app) => {
    app.get('/account', { schema: { summary: 'The account behind the key', response: { 200: Account, ...errorResponses(401, 429) } } }, async (request) => {
      const { principal } = request;
      return {
        credits: { available_micro: await availableCredit(deps.store.db, principal.workspaceId) },
        key: principal.key,
        organization: principal.organization,
        plan: { id: principal.plan.id, name: principal.plan.name },
        rate_limit_per_second: principal.plan.rate_limit_per_second,
        limits: {
          max_concurrent_jobs: principal.plan.max_concurrent_jobs,
          max_pages_per_document: principal.plan.max_pages_per_document,
          max_retention_seconds: principal.plan.max_retention_seconds,
          max_upload_bytes: principal.plan.max_upload_bytes,
        },
      };
    });
  };
