/**
 * The peer comparison (bench/peer-directus.ts, bench/report.ts): the questions asked of the
 * peer are read off our scenarios' own paths, and the 5x line (DESIGN.md section 10) holds only if every one is met.
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

  it('is met when every question is at least 5x', () => {
    expect(peerBudgetLine(peer([5, 31.5])).met).toBe(true);
    expect(peerBudgetLine(peer([5, 31.5])).line).toBe(
      '>= 5x Peer on the shared questions at 8 connections',
    );
  });

  it('is missed when one question is below, and says which', () => {
    const line = peerBudgetLine(peer([25, 4.9]));
    expect(line.met).toBe(false);
    expect(line.detail).toBe('q0 25.0x; q1 4.9x');
  });

  it('is missed when nothing was asked', () => {
    expect(peerBudgetLine(peer([])).met).toBe(false);
  });
});
