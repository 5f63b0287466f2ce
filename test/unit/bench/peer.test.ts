/**
 * The peer comparison (bench/peer-directus.ts, bench/report.ts): the questions asked of the
 * peer are read off our scenarios' own paths, and the 20x line holds only if every one is met.
 */
import { describe, expect, it } from 'vitest';
import { peerQueries } from '../../../bench/peer-directus.js';
import { peerBudgetLine, type PeerResult } from '../../../bench/report.js';

describe('peerQueries', () => {
  it('takes seller, window, word and order from our scenarios', () => {
    expect(
      peerQueries({
        'orders items.arrival[range]':
          '/api/orders?seller=S1&items.arrival[range]=2027-03-01%2C2027-03-03',
        'orders customerName[contains]': '/api/orders?seller=S1&customerName[contains]=mart',
        'GET /api/orders/{id}': '/api/orders/O9',
      }),
    ).toEqual({
      seller: 'S1',
      from: '2027-03-01',
      to: '2027-03-03',
      contains: 'mart',
      orderId: 'O9',
    });
  });
});

describe('peerBudgetLine', () => {
  const peer = (factors: number[]): PeerResult => ({
    name: 'Peer',
    queries: factors.map((f, i) => ({
      name: `q${i}`,
      oursRps: 100 * f,
      peerRps: 100,
      peerP99Ms: 1,
      peerRssMb: 1,
    })),
  });

  it('is met when every question is at least 20x', () => {
    expect(peerBudgetLine(peer([20, 31.5])).met).toBe(true);
  });

  it('is missed when one question is below, and says which', () => {
    const line = peerBudgetLine(peer([25, 5.4]));
    expect(line.met).toBe(false);
    expect(line.detail).toBe('q0 25.0x; q1 5.4x');
  });

  it('is missed when nothing was asked', () => {
    expect(peerBudgetLine(peer([])).met).toBe(false);
  });
});
