/** Plain HTTP against the cluster's processes (fetch), and the accounts the tests need. */
import { randomUUID } from 'node:crypto';

export interface Reply {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export async function call(
  base: string,
  method: string,
  url: string,
  options: { key?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(options.key ? { 'x-api-key': options.key } : {}),
      ...options.headers,
    },
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON (an HAProxy page): kept as text.
  }
  return { status: response.status, headers: response.headers, body };
}

export interface ClusterAccount {
  id: string;
  apiKey: string;
  email: string;
}

export async function signUp(base: string, roles: string[] = []): Promise<ClusterAccount> {
  const email = `cluster.${randomUUID()}@example.com`;
  const reply = await call(base, 'POST', '/api/users', {
    body: { name: 'Cluster User', email, password: 'cluster password 1', roles },
  });
  if (reply.status !== 201)
    throw new Error(`sign-up: ${reply.status} ${JSON.stringify(reply.body)}`);
  return { id: reply.body.id, apiKey: reply.body.apiKey, email };
}

/** A seller with an experience departing daily at 09:00 UTC, `outingMax` seats each. */
export async function openShop(base: string, outingMax: number | null) {
  const seller = await signUp(base, ['ROLE_SELLER']);
  const reply = await call(base, 'POST', '/api/experiences', {
    key: seller.apiKey,
    body: {
      name: 'Cluster Tour',
      price: 10,
      priceType: 'person',
      currency: 'EUR',
      duration: 60,
      group: { outingMax },
      schedules: [
        { type: 'available', repeat: 'weekly', days: [0, 1, 2, 3, 4, 5, 6], times: [900] },
      ],
    },
  });
  if (reply.status !== 201) throw new Error(`experience: ${JSON.stringify(reply.body)}`);
  return { seller, experienceId: reply.body.id as string };
}

export const booking = (experienceId: string, arrival: string, quantity = 1) => ({
  items: [{ experience: { id: experienceId }, arrival, arrivalTime: 900, quantity }],
});

export function tally(replies: Reply[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of replies) {
    const key = r.status >= 400 && r.body?.code ? `${r.status} ${r.body.code}` : String(r.status);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}
