import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Sequelize } from 'sequelize';
import { requestsBetween } from '../../http/traffic.js';
import { NdjsonSplitWriter, type FileNumbering } from '../fhir/fhir.export.files.js';
import type { ExportType } from '../fhir/fhir.export.params.js';
import { SEARCHES, type SearchInput } from '../fhir/fhir.search.js';
import type { Page } from '../fhir/fhir.search.sql.js';
import { nextPageSize, pauseAfterPage, type ExportFileEntry } from './fhir-exports.rules.js';

/**
 * One part of one type of a Bulk export (issue 37): its resources read by keyset pages through the
 * FHIR API's own search and written as NDJSON files. A type is one part, written in the export's
 * worker thread (fhir-exports.worker.ts), or two halves of its time span written at once (dateParts),
 * the first in the API's thread; the same function runs in either. Plain data, so it crosses to a worker.
 */
export interface ExportPart {
  clientId: number;
  type: ExportType;
  groupId: number | null;
  /** A Patient- or Group-level export: the patients' compartment only (SearchInput.compartment); a system-level one, none. */
  compartment?: boolean;
  /** The export's `_lastUpdated` bounds: up to its transaction time, after `_since`. */
  lastUpdated: string[];
  /** This part's `date` bounds (a half of the type's time span), none for a whole type. */
  date: string[];
  dir: string;
  fileResources: number;
  numbering: FileNumbering;
}

export interface PartDeps {
  sequelize: Sequelize;
  /** The count of requests the process received (http/traffic.ts): the part gives way while it grows. */
  requestsReceived?: () => number;
  /** Rows of a page while requests come in (EXPORT_BUSY_PAGE), for a part in the API's own thread; none: always EXPORT_PAGE. */
  busyPage?: number;
}

export interface PartHooks {
  /** After each page: the part's resources so far. */
  onPage?: (count: number) => void;
  /** Asked after each page: true ends the part (PartStopped) with its files closed, for the caller to remove. */
  stopped?: () => boolean;
}

export class PartStopped extends Error {}

/** Writes one part and answers its files with their counts. */
export async function runPart(deps: PartDeps, part: ExportPart, hooks: PartHooks = {}): Promise<ExportFileEntry[]> {
  const writer = new NdjsonSplitWriter(part.dir, part.type, part.fileResources, part.numbering);
  // Each type's default order is keyset on an index that starts with the organisation (readings by
  // (client_id, when), the rest by id), so a page costs what the first did, however deep.
  const pageAt = (cursor: string | null, size: number): Promise<Page> => {
    const params = new Map<string, string[]>([['_lastUpdated', part.lastUpdated]]);
    if (part.date.length) params.set('date', part.date);
    if (cursor) params.set('_cursor', [cursor]);
    const input: SearchInput = {
      params,
      count: size,
      summaryCount: false,
      wantTotal: false,
      groupId: part.groupId,
      compartment: part.compartment,
    };
    const page = SEARCHES[part.type].search({ sequelize: deps.sequelize, background: true }, part.clientId, input);
    page.catch(() => undefined); // awaited by the next turn; a stop or a failed write leaves it unawaited
    return page;
  };
  const requests = deps.requestsReceived ?? (() => 0);
  let next: Promise<Page> | null = pageAt(null, nextPageSize(false, deps.busyPage));
  let paused = false;
  let count = 0;
  let pageStarted = performance.now();
  let requestsAt = requests();
  try {
    while (next) {
      const page: Page = await next;
      if (hooks.stopped?.()) throw new PartStopped();
      // The next page is read while this one is written: SQLite reads on the thread pool, PostgreSQL
      // in its own process, while this thread turns the page into NDJSON.
      next = page.next ? pageAt(page.next, nextPageSize(paused, deps.busyPage)) : null;
      await writer.writeMany(page.resources as Array<{ resourceType: string }>);
      count += page.resources.length;
      hooks.onPage?.(count);
      // Readings and screens first: while requests come in, the part pauses after each page.
      const pause: number = next ? pauseAfterPage(performance.now() - pageStarted, requestsBetween(requestsAt, requests())) : 0;
      paused = pause > 0;
      if (paused) await sleep(pause);
      pageStarted = performance.now();
      requestsAt = requests();
    }
  } finally {
    // A stop or a failed write leaves the next page being read: its statement ends before the part
    // does, so whoever closes the connection (the worker's thread, on stop) finds none in flight.
    await next?.catch(() => undefined);
    await writer.close();
  }
  return writer.files.map((f) => ({ type: part.type, file: path.basename(f.file), count: f.count }));
}
