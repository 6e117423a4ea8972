import type { RecordsAfterImport } from "../../changes/after-import.js";
import type { DatasetKind } from "../../db/schema.js";

/** How many rejected records an import lists one by one; past this only the counts by reason grow. */
export const MAX_LISTED_REJECTIONS = 1000;

/**
 * What an import did with every record it read: `read = imported + updated + unchanged + merged + rejected`, always.
 * `merged` counts records folded into another of the same import (a lot in several pieces, a condominium's
 * repeated address); `rejected` ones are listed with their record number and reason.
 */
export interface ImportSummary {
  /** A dataset's kind, or `event` for a catastrophe event's area (`events/import-event.ts`). */
  kind: DatasetKind | "event";
  dataset: string;
  read: number;
  imported: number;
  updated: number;
  /** Records identical to the stored ones: nothing written, nothing under them to compute again. */
  unchanged: number;
  merged: number;
  rejected: number;
  rejectedByReason: Record<string, number>;
  /** By record number; with several files, the number in the file named. */
  rejections: Array<{ number: number; file?: string } & Rejection>;
  /** The property records brought up to date with what the import changed. */
  properties: RecordsAfterImport;
}

export type RecordOutcome = "imported" | "updated" | "unchanged" | "merged" | Rejection;

/** Why a record was not imported: a stable `reason` code and, where it helps, the specifics. */
export interface Rejection {
  reason: string;
  detail?: string;
  /** For a duplicate: the other dataset that already holds the record. */
  dataset?: string;
}

export function emptySummary(kind: ImportSummary["kind"], dataset: string): ImportSummary {
  return {
    kind,
    dataset,
    read: 0,
    imported: 0,
    updated: 0,
    unchanged: 0,
    merged: 0,
    rejected: 0,
    rejectedByReason: {},
    rejections: [],
    properties: { changed: 0, queued: 0 },
  };
}

export function count(summary: ImportSummary, number: number, outcome: RecordOutcome): void {
  summary.read += 1;
  if (typeof outcome === "string") {
    summary[outcome] += 1;
    return;
  }
  summary.rejected += 1;
  summary.rejectedByReason[outcome.reason] = (summary.rejectedByReason[outcome.reason] ?? 0) + 1;
  if (summary.rejections.length < MAX_LISTED_REJECTIONS) summary.rejections.push({ number, ...outcome });
}
