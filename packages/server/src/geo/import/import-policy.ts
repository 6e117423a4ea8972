import type { ImportSummary } from "./import-summary.js";

/** What an import may do to existing data before it is refused as implausible. */
export interface ImportPolicy {
  /** The largest share of the records read (0..1) that may be rejected; more refuses the whole import. */
  maxRejected: number;
  /** Whether an import that brings no record at all may proceed (for a layer: leave it empty). */
  allowEmpty: boolean;
}

/** One record in ten may be rejected: a publisher's placeholders and strays, never a wrong option. */
export const DEFAULT_IMPORT_POLICY: ImportPolicy = { maxRejected: 0.1, allowEmpty: false };

/** The rejection reason of a record that duplicates another dataset's (see `duplicate-areas.ts`). */
export const DUPLICATE_REASON = "duplicate_of_other_dataset";

/** Why `summary` must not be kept under `policy`, in one line; undefined when it may be kept. */
export function refusalOf(summary: ImportSummary, policy: ImportPolicy): string | undefined {
  const accepted = summary.imported + summary.updated + summary.unchanged + summary.merged;
  if (summary.read === 0) {
    return policy.allowEmpty
      ? undefined
      : `the file holds no records; give --allow-empty to leave dataset "${summary.dataset}" empty`;
  }
  const share = summary.rejected / summary.read;
  if (share > policy.maxRejected || accepted === 0) {
    return (
      `${summary.rejected} of ${summary.read} records rejected (${reasonsOf(summary)}), ` +
      `more than --max-rejected ${percent(policy.maxRejected)} allows${hintFor(summary)}`
    );
  }
  return undefined;
}

function reasonsOf(summary: ImportSummary): string {
  return Object.entries(summary.rejectedByReason)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([reason, count]) => {
      const example = summary.rejections.find((rejection) => rejection.reason === reason);
      return `${count} × ${reason}${example?.detail ? `: ${example.detail}` : ""}`;
    })
    .join("; ");
}

/** What to do about the commonest reason, where there is one thing to do. */
function hintFor(summary: ImportSummary): string {
  const [top] = Object.entries(summary.rejectedByReason).sort((a, b) => b[1] - a[1]);
  if (top?.[0] !== DUPLICATE_REASON) return "";
  const name = summary.rejections.find((rejection) => rejection.reason === DUPLICATE_REASON)?.dataset;
  return name === undefined ? "" : `; to replace dataset "${name}" with this file, import it with --replace "${name}"`;
}

function percent(share: number): string {
  return `${Math.round(share * 1000) / 10}%`;
}
