/**
 * Version resolution: `X-API-VERSION` (or the caller's pinned version) to the newest known
 * version on or before it, and the list of changes a caller on that version needs
 * translated.
 */
import type { ApiVersion, RequestRewrite, ResponseRewrite, RouteRef } from './types.js';

export class VersionError extends Error {
  override name = 'VersionError';
}

const DATE = /^v?(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date `YYYY-MM-DD` (a leading `v`, as in `v2018-02-26`, is accepted). */
export function parseVersionDate(value: string): string | undefined {
  const match = DATE.exec(value.trim());
  if (!match) return undefined;
  const [, y, m, d] = match as unknown as [string, string, string, string];
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  const iso = `${y}-${m}-${d}`;
  return date.toISOString().slice(0, 10) === iso ? iso : undefined;
}

export interface VersionRegistry {
  readonly versions: readonly ApiVersion[];
  readonly latest: string;
  readonly oldest: string;
  /** The version that applies to a request; throws VersionError for an unparseable header. */
  resolve(header: string | undefined, pinned: string | undefined): string;
  /** Request rewrites for a caller on `version` and this route, oldest change first. */
  requestRewrites(version: string, route: RouteRef): RequestRewrite[];
  /** Response rewrites for a caller on `version` and this route, newest change first. */
  responseRewrites(version: string, route: RouteRef): ResponseRewrite[];
  /** Gate for behaviour that differs by version: is the caller on a version before `date`? */
  isBefore(version: string, date: string): boolean;
}

export function createVersionRegistry(list: readonly ApiVersion[]): VersionRegistry {
  const versions = [...list].sort((a, b) => a.date.localeCompare(b.date));
  const first = versions[0];
  const last = versions[versions.length - 1];
  if (!first || !last) throw new Error('At least one API version must be registered');
  for (const v of versions) {
    if (parseVersionDate(v.date) !== v.date) throw new Error(`Bad version date ${v.date}`);
  }

  const newestOnOrBefore = (date: string): string => {
    let found = first.date; // Dates before the first version get the first (oldest) one.
    for (const v of versions) if (v.date <= date) found = v.date;
    return found;
  };
  const matches = (a: RouteRef, b: RouteRef) => a.method === b.method && a.url === b.url;
  const newer = (version: string) => versions.filter((v) => v.date > version);

  return {
    versions,
    latest: last.date,
    oldest: first.date,
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
    requestRewrites(version, route) {
      return newer(version).flatMap((v) => (v.requests ?? []).filter((r) => matches(r, route)));
    },
    responseRewrites(version, route) {
      return newer(version)
        .reverse()
        .flatMap((v) => (v.responses ?? []).filter((r) => matches(r, route)));
    },
    isBefore(version, date) {
      return version < date;
    },
  };
}
