// Request limits on every authenticated request (docs/decisions.md#rate-limits): the per-key rate limit with its
// X-RateLimit-* headers (and Retry-After on a 429), then the monthly quota of capped plans
// (402 quota_exceeded). A request refused by the rate limit does not count against the quota.
import type { FastifyReply } from 'fastify';
import type { Config } from '../config.js';
import * as clock from '../domain/clock.js';
import { FolioError } from '../domain/errors.js';
import { monthPeriod, nextMonthStart, rateWindow, secondsToReset } from '../domain/limits.js';
import type { RequestCounters } from '../store/counters.js';
import type { Principal } from './auth.js';
import { isoTime } from '../store/wire.js';

export async function enforceLimits(principal: Principal, reply: FastifyReply, counters: RequestCounters, config: Config): Promise<void> {
  const at = clock.now();
  const limit = principal.plan.rate_limit_per_second;
  const count = await counters.hitRate(principal.key.id, rateWindow(at));
  const reset = secondsToReset(at);
  reply.header('x-ratelimit-limit', limit);
  reply.header('x-ratelimit-remaining', Math.max(0, limit - count));
  reply.header('x-ratelimit-reset', reset);
  if (count > limit) {
    reply.header('retry-after', reset);
    throw new FolioError('rate_limited', `This key is limited to ${limit} requests per second; retry after ${reset} s.`, { limit, retry_after: reset });
  }
  const quota = principal.plan.monthly_request_quota;
  if (quota > 0) {
    const { allowed, used } = await counters.hitQuota(principal.workspaceId, monthPeriod(at), quota);
    if (!allowed) {
      throw new FolioError('quota_exceeded', `The workspace has used its ${quota} requests for this month.`, {
        limit: quota,
        used,
        resets_at: isoTime(nextMonthStart(at)),
        upgrade_url: config.upgradeUrl,
      });
    }
  }
}
