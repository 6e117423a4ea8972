/**
 * What an import is doing besides reading its records: at a state's size, its work before the first record (removing
 * the dataset it replaces) and after the last (space-ordered rows, indexes, buildings' parcels, property records,
 * the commit) takes minutes, and an operator is told which of it is under way. In the order they come.
 */
export type ImportStage =
  /** The dataset `--replace` names, removed before the import writes. */
  | "replacing"
  /** The rows still held for space order written, and the indexes an import builds at its end. */
  | "indexing"
  /** A parcel import: the buildings under new, moved or removed lot lines given the parcel holding most of them. */
  | "reassigning"
  /** The ordered properties under what the import changed brought up to date. */
  | "properties"
  /** The transaction committed, and on SQLite its log written back into the database. */
  | "committing";
