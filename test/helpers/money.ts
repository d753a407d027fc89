// The money rules every test that moves credit checks at its end (docs/decisions.md#test-mode, docs/decisions.md#money):
// every usage record obeys `amount_micro = ceil(quantity x unit_price_micro / unit_divisor)`
// (0 in test mode), and credit is conserved: available + held + charged = what was credited,
// with nothing available below zero and every hold accounted for by a document or a query.
import { expect } from 'vitest';
import { Client, type Installation } from './folio.js';

interface RecordLike {
  id: string;
  quantity: number;
  unit_price_micro: number;
  unit_divisor: number;
  amount_micro: number;
}

/** docs/decisions.md#money's amount for a record's quantity and price, exact for any size (BigInt). */
export function formulaAmount(record: Pick<RecordLike, 'quantity' | 'unit_price_micro' | 'unit_divisor'>): number {
  const numerator = BigInt(record.quantity) * BigInt(record.unit_price_micro);
  const divisor = BigInt(record.unit_divisor);
  return Number((numerator + divisor - 1n) / divisor);
}

/** Every usage record the client's key sees, through GET /api/v1/usage page by page. */
export async function allUsage(client: Client): Promise<any[]> {
  const records: any[] = [];
  let after = '';
  for (;;) {
    const response = await client.get(`/api/v1/usage?limit=100${after ? `&starting_after=${after}` : ''}`);
    expect(response.status).toBe(200);
    records.push(...response.json.data);
    if (!response.json.has_more) return records;
    after = records[records.length - 1].id;
  }
}

function expectFormula(record: RecordLike & { mode?: string }, mode: 'live' | 'test'): void {
  expect(Number.isSafeInteger(record.quantity) && record.quantity >= 0, `${record.id}: quantity ${record.quantity}`).toBe(true);
  expect(record.amount_micro, `${record.id}: ${record.quantity} x ${record.unit_price_micro} / ${record.unit_divisor} in ${mode} mode`).toBe(
    mode === 'test' ? 0 : formulaAmount(record),
  );
}

/**
 * Checks the formula over every usage record of the workspace (as the API shows them to its live
 * and test keys, and as the database holds them) and the conservation of its credit;
 * `credited` is everything ever added to it. Call it when no work is running.
 */
export async function expectMoneyKept(install: Installation, ws: { id: string; live: string; test: string }, api: string, credited: number): Promise<void> {
  const shown = { live: await allUsage(new Client(api, ws.live)), test: await allUsage(new Client(api, ws.test)) };
  for (const mode of ['live', 'test'] as const) for (const record of shown[mode]) expectFormula(record, mode);

  const stored = await install.select<RecordLike & { mode: 'live' | 'test' }>(
    'SELECT id, mode, quantity, unit_price_micro, unit_divisor, amount_micro FROM usage_records WHERE workspace_id = ?',
    [ws.id],
  );
  for (const record of stored) expectFormula(record, record.mode);
  expect(stored.map((r) => r.id).sort()).toEqual([...shown.live, ...shown.test].map((r) => r.id).sort());

  const [workspace] = await install.select<{ balance_micro: number; held_micro: number }>('SELECT balance_micro, held_micro FROM workspaces WHERE id = ?', [ws.id]);
  const [holds] = await install.select<{ documents: number | null; queries: number | null }>(
    `SELECT (SELECT sum(hold_micro) FROM documents WHERE workspace_id = ?) AS documents,
            (SELECT sum(hold_micro) FROM queries WHERE workspace_id = ?) AS queries`,
    [ws.id, ws.id],
  );
  const charged = shown.live.reduce((sum, r) => sum + r.amount_micro, 0);
  const available = (await new Client(api, ws.live).get('/api/v1/account')).json.credits.available_micro;
  // Every hold belongs to a document or a query, and none is negative.
  expect(workspace.held_micro).toBe((holds.documents ?? 0) + (holds.queries ?? 0));
  expect(workspace.held_micro).toBeGreaterThanOrEqual(0);
  // Available credit never goes below zero, and it is what the account shows.
  expect(available).toBe(workspace.balance_micro - workspace.held_micro);
  expect(available).toBeGreaterThanOrEqual(0);
  // Money is never created or lost.
  expect(available + workspace.held_micro + charged).toBe(credited);
}
