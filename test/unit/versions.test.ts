import { describe, expect, it } from 'vitest';
import { createVersionRegistry, parseVersionDate } from '../../src/versions/registry.js';
import type { ApiVersion } from '../../src/versions/types.js';

const rewrite = (tag: string) => ({
  method: 'GET',
  url: '/x',
  rewrite: (body: unknown) => [...(body as string[]), tag],
});

const list: ApiVersion[] = [
  { date: '2018-02-26', title: 'C', description: '', responses: [rewrite('C')] },
  { date: '2017-01-01', title: 'A', description: '' },
  {
    date: '2018-02-15',
    title: 'B',
    description: '',
    responses: [rewrite('B')],
    requests: [{ method: 'GET', url: '/x', rewrite: () => undefined }],
  },
];
const registry = createVersionRegistry(list);

describe('parseVersionDate', () => {
  it('accepts real dates, with an optional leading v', () => {
    expect(parseVersionDate('2018-02-26')).toBe('2018-02-26');
    expect(parseVersionDate('v2018-02-26')).toBe('2018-02-26');
    expect(parseVersionDate('2024-02-29')).toBe('2024-02-29');
  });
  it.each([
    '2018-02-30',
    '2023-02-29',
    '2018-13-01',
    '18-02-26',
    '2018/02/26',
    'latest',
    '',
    '2018-02-26T00:00',
  ])('rejects %s', (value) => expect(parseVersionDate(value)).toBeUndefined());
});

describe('version registry', () => {
  it('knows its oldest and latest versions', () => {
    expect(registry.oldest).toBe('2017-01-01');
    expect(registry.latest).toBe('2018-02-26');
  });

  it('resolves the header to the newest version on or before it', () => {
    expect(registry.resolve('2018-02-20', undefined)).toBe('2018-02-15');
    expect(registry.resolve('2018-02-26', undefined)).toBe('2018-02-26');
    expect(registry.resolve('2099-01-01', undefined)).toBe('2018-02-26');
    expect(registry.resolve('2000-01-01', undefined)).toBe('2017-01-01');
  });

  it('falls back to the pinned version, then to the latest', () => {
    expect(registry.resolve(undefined, '2018-02-16')).toBe('2018-02-15');
    expect(registry.resolve(undefined, undefined)).toBe('2018-02-26');
    expect(registry.resolve('2018-02-26', '2017-01-01')).toBe('2018-02-26');
  });

  it('throws for garbage', () => {
    expect(() => registry.resolve('soon', undefined)).toThrow(/YYYY-MM-DD/);
  });

  it('lists response rewrites newest first, only for versions after the caller’s', () => {
    const apply = (version: string) =>
      registry
        .responseRewrites(version, { method: 'GET', url: '/x' })
        .reduce<unknown>((body, r) => r.rewrite(body, {} as never), []);
    expect(apply('2017-01-01')).toEqual(['C', 'B']);
    expect(apply('2018-02-15')).toEqual(['C']);
    expect(apply('2018-02-26')).toEqual([]);
    expect(registry.responseRewrites('2017-01-01', { method: 'POST', url: '/x' })).toEqual([]);
    expect(registry.requestRewrites('2017-01-01', { method: 'GET', url: '/x' })).toHaveLength(1);
    expect(registry.requestRewrites('2018-02-15', { method: 'GET', url: '/x' })).toHaveLength(0);
  });

  it('gates behaviour by date', () => {
    expect(registry.isBefore('2018-02-15', '2018-02-26')).toBe(true);
    expect(registry.isBefore('2018-02-26', '2018-02-26')).toBe(false);
  });

  it('refuses an empty list or a bad date', () => {
    expect(() => createVersionRegistry([])).toThrow();
    expect(() =>
      createVersionRegistry([{ date: '2018-02-30', title: '', description: '' }]),
    ).toThrow();
  });
});
