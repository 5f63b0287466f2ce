/**
 * Which repository methods the SQL snapshot test runs, so that it can fail naming the ones
 * it does not: `tracked(module)` wraps a `*.repository.ts` module's exports, noting each
 * method taken from a repository (`ordersRepository.insert`) and each function exported
 * beside them (`enqueue`); `repositoryMethods(db)` lists every one of src/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Kysely } from 'kysely';
import type { DB } from '../../src/db/types.js';

const called = new Set<string>();

/** A repository factory: `xRepository(db)` returns the repository's methods. */
const isFactory = (name: string) => name.endsWith('Repository');

type Fn = (...args: unknown[]) => unknown;

export function tracked<T extends object>(module: T): T {
  const wrapped = Object.entries(module).map(([name, value]: [string, unknown]) => {
    if (typeof value !== 'function') return [name, value];
    const fn = value as Fn;
    if (!isFactory(name)) {
      return [name, (...args: unknown[]) => (called.add(name), fn(...args))];
    }
    const factory = (...args: unknown[]) =>
      new Proxy(fn(...args) as object, {
        get(target, key, receiver) {
          const member: unknown = Reflect.get(target, key, receiver);
          if (typeof member === 'function') called.add(`${name}.${String(key)}`);
          return member;
        },
      });
    return [name, factory];
  });
  return Object.fromEntries(wrapped) as T;
}

function repositoryFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return repositoryFiles(full);
    return entry.name.endsWith('.repository.ts') ? [full] : [];
  });
}

/** Every method of every repository in src/, as `tracked` names them. */
export async function repositoryMethods(db: Kysely<DB>): Promise<string[]> {
  const names: string[] = [];
  for (const file of repositoryFiles(path.resolve('src'))) {
    const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(module)) {
      if (typeof value !== 'function') continue;
      if (!isFactory(name)) names.push(name);
      else {
        const repository = (value as Fn)(db) as Record<string, unknown>;
        for (const [method, member] of Object.entries(repository)) {
          if (typeof member === 'function') names.push(`${name}.${method}`);
        }
      }
    }
  }
  return names.sort();
}

/** The methods of `all` that no tracked call has taken. */
export const notCalled = (all: readonly string[]): string[] => all.filter((m) => !called.has(m));
