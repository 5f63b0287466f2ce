/**
 * The callers of the scenarios, made through the service's own interfaces: an admin from
 * the CLI (the only way to make one), the seller's API key read by that admin through the
 * API (sellers see their own orders through the seller scope, which the spec's queries
 * use), and a customer who books, signed up through the public endpoint.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { BENCH_DOMAIN } from './database.js';

export interface Credentials {
  adminKey: string;
  sellerId: string;
  sellerKey: string;
  customerId: string;
  customerKey: string;
}

const ROOT = path.join(import.meta.dirname, '..');

export async function api<T>(
  baseUrl: string,
  method: string,
  url: string,
  key: string | undefined,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${baseUrl}${url}`, {
    method,
    headers: {
      ...(key ? { 'x-api-key': key } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

export async function createCredentials(
  baseUrl: string,
  env: Record<string, string>,
  sellerId: string,
): Promise<Credentials> {
  const run = `${Date.now().toString(36)}`;
  const cli = spawnSync(
    process.execPath,
    [
      'dist/cli.js',
      'users',
      'create',
      '--email',
      `admin-${run}@${BENCH_DOMAIN}`,
      '--name',
      'Bench Admin',
      '--admin',
    ],
    { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8' },
  );
  if (cli.status !== 0) throw new Error(`cli users create failed: ${cli.stderr}`);
  const admin = JSON.parse(cli.stdout) as { apiKey: string };
  const seller = await api<{ apiKey: string }>(
    baseUrl,
    'GET',
    `/api/users/${sellerId}/apiKey`,
    admin.apiKey,
  );
  const customer = await api<{ id: string; apiKey: string }>(
    baseUrl,
    'POST',
    '/api/users',
    undefined,
    {
      name: 'Bench Customer',
      email: `customer-${run}@${BENCH_DOMAIN}`,
      password: `bench password ${run}`,
    },
  );
  return {
    adminKey: admin.apiKey,
    sellerId,
    sellerKey: seller.apiKey,
    customerId: customer.id,
    customerKey: customer.apiKey,
  };
}
