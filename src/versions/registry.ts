/**
 * Version resolution: `X-API-VERSION` (or the caller's pinned version) to the newest known
 * version on or before it, and which of the modules' changes a caller on that version needs
 * undone.
 */
import type {
  ApiVersion,
  RequestRewrite,
  RouteRef,
  VersionChanges,
  VersionTransform,
} from './types.js';

export class VersionError extends Error {
  override name = 'VersionError';
}

const DATE = /^v?(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date `YYYY-MM-DD` (a leading `v`, as in `v2018-02-26`, is accepted). */
export function parseVersionDate(value: string): string | undefined {
  const match = DATE.exec(value.trim());
  if (!match) return undefined;
  const [, y, m, d] = match as unknown as [string, string, string, string];
  const date = new Date(Date.UTC(2000, Number(m) - 1, Number(d)));
  // Not in Date.UTC: it reads the years 0-99 as 1900-1999 (`0099-01-01` was "not a date").
  date.setUTCFullYear(Number(y));
  const iso = `${y}-${m}-${d}`;
  return date.toISOString().slice(0, 10) === iso ? iso : undefined;
}

export interface VersionRegistry {
  readonly versions: readonly ApiVersion[];
  readonly latest: string;
  readonly oldest: string;
  /** The version that applies to a request; throws VersionError for an unparseable header. */
  resolve(header: string | undefined, pinned: string | undefined): string;
  /** Every request rewrite, oldest change first (app start checks each names a route). */
  readonly rewrites: readonly RequestRewrite[];
  /** Request rewrites for a caller on `version` and this route, oldest change first. */
  requestRewrites(version: string, route: RouteRef): RequestRewrite[];
  /** Object transforms for a caller on `version`, newest change first. */
  objectTransforms(version: string): VersionTransform[];
  /** Gate for behaviour that differs by version: is the caller on a version before `date`? */
  isBefore(version: string, date: string): boolean;
}

export function createVersionRegistry(
  list: readonly ApiVersion[],
  changes: readonly VersionChanges[] = [],
): VersionRegistry {
  const versions = [...list].sort((a, b) => a.date.localeCompare(b.date));
  const first = versions[0];
  const last = versions[versions.length - 1];
  if (!first || !last) throw new Error('At least one API version must be registered');
  for (const v of versions) {
    if (parseVersionDate(v.date) !== v.date) throw new Error(`Bad version date ${v.date}`);
  }
  const known = new Set(versions.map((v) => v.date));
  const requests = changes.flatMap((c) => c.requests ?? []);
  const objects = changes.flatMap((c) => c.objects ?? []);
  for (const change of [...requests, ...objects]) {
    if (!known.has(change.version)) throw new Error(`Unknown version ${change.version}`);
  }
  const byDate = (a: { version: string }, b: { version: string }) =>
    a.version.localeCompare(b.version);
  requests.sort(byDate);
  objects.sort(byDate).reverse();

  const newestOnOrBefore = (date: string): string => {
    let found = first.date; // Dates before the first version get the first (oldest) one.
    for (const v of versions) if (v.date <= date) found = v.date;
    return found;
  };

  return {
    versions,
    latest: last.date,
    oldest: first.date,
    rewrites: requests,
    resolve(header, pinned) {
      if (header !== undefined) {
        const date = parseVersionDate(header);
        if (!date) {
          throw new VersionError(
            `X-API-VERSION must be a date YYYY-MM-DD (known versions: ${versions
              .map((v) => v.date)
              .join(', ')}).`,
          );
        }
        return newestOnOrBefore(date);
      }
      return pinned ? newestOnOrBefore(pinned) : last.date;
    },
    requestRewrites: (version, route) =>
      requests.filter(
        (r) => r.version > version && r.method === route.method && r.url === route.url,
      ),
    objectTransforms: (version) => objects.filter((t) => t.version > version),
    isBefore: (version, date) => version < date,
  };
}
