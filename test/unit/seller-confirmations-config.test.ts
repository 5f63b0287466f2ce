/**
 * SELLER_CONFIRMATIONS_PER_DAY (docs/configuration.md): a seller's daily budget of
 * confirmations to others, 500 unless set, validated like the other caps (a whole number from
 * 0 to 1,000,000; anything else stops start-up naming the variable).
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  return expect.unreachable(`accepted ${JSON.stringify(env)}`);
}

describe('SELLER_CONFIRMATIONS_PER_DAY', () => {
  it('is 500 unless set, and takes 0 (none) up to 1,000,000', () => {
    expect(loadConfig({}).sellerConfirmationsToOthersPerDay).toBe(500);
    for (const value of [0, 20, 1_000_000]) {
      const config = loadConfig({ SELLER_CONFIRMATIONS_PER_DAY: String(value) });
      expect(config.sellerConfirmationsToOthersPerDay).toBe(value);
    }
  });

  it.each(['-1', '1000001', '2.5', 'many'])('refuses %j, naming the variable', (value) => {
    expect(refusal({ SELLER_CONFIRMATIONS_PER_DAY: value })).toContain(
      'SELLER_CONFIRMATIONS_PER_DAY',
    );
  });
});
