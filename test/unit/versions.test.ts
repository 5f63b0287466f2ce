import { describe, expect, it } from 'vitest';
import { createVersionRegistry, parseVersionDate } from '../../src/versions/registry.js';
import type { ApiVersion, VersionTransform } from '../../src/versions/types.js';

const transform = (version: string, tag: string): VersionTransform => ({
  version,
  object: 'x',
  down: (objects) => objects.map((o) => ({ ...o, tags: [...(o.tags as string[]), tag] })),
});

const list: ApiVersion[] = [
  { date: '2018-02-26', title: 'C', description: '' },
  { date: '2017-01-01', title: 'A', description: '' },
  { date: '2018-02-15', title: 'B', description: '' },
];
const registry = createVersionRegistry(list, [
  { objects: [transform('2018-02-26', 'C')] },
  {
    objects: [transform('2018-02-15', 'B')],
    requests: [{ version: '2018-02-15', method: 'GET', url: '/x', rewrite: () => undefined }],
  },
]);

describe('parseVersionDate', () => {
  it('accepts real dates, with an optional leading v', () => {
    expect(parseVersionDate('2018-02-26')).toBe('2018-02-26');
    expect(parseVersionDate('v2018-02-26')).toBe('2018-02-26');
    expect(parseVersionDate('2024-02-29')).toBe('2024-02-29');
    // Years below 100 are years, as any other (Date.UTC alone made them 19xx).
    expect(parseVersionDate('0099-01-01')).toBe('0099-01-01');
    expect(parseVersionDate('0004-02-29')).toBe('0004-02-29');
  });
  it.each([
    '2018-02-30',
    '2023-02-29',
    '0003-02-29',
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

  it('lists object transforms newest first, only for versions after the caller’s', async () => {
    const apply = async (version: string) => {
      let objects = [{ object: 'x', tags: [] as string[] }];
      for (const t of registry.objectTransforms(version))
        objects = (await t.down(objects, {} as never)) as typeof objects;
      return objects[0]!.tags;
    };
    expect(await apply('2017-01-01')).toEqual(['C', 'B']);
    expect(await apply('2018-02-15')).toEqual(['C']);
    expect(await apply('2018-02-26')).toEqual([]);
  });

  it('lists request rewrites of the route, only for versions after the caller’s', () => {
    expect(registry.requestRewrites('2017-01-01', { method: 'GET', url: '/x' })).toHaveLength(1);
    expect(registry.requestRewrites('2017-01-01', { method: 'POST', url: '/x' })).toHaveLength(0);
    expect(registry.requestRewrites('2018-02-15', { method: 'GET', url: '/x' })).toHaveLength(0);
  });

  it('refuses changes dated on a version it does not know', () => {
    expect(() =>
      createVersionRegistry(list, [{ objects: [transform('2019-01-01', 'Z')] }]),
    ).toThrow(/Unknown version/);
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
