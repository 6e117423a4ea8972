/**
 * What an import or a removal is doing besides reading records: at a state's size, its work before the first record
 * (removing the dataset it replaces) and after the last (space-ordered rows, indexes, buildings' parcels, property
 * records, the commit), or a whole removal, takes minutes, and an operator is told which of it is under way.
 */
export type DatasetStage =
  /** An import: the dataset `--replace` names, removed before the import writes. */
  | "replacing"
  /** An import: the rows still held for space order written, and the indexes an import builds at its end. */
  | "indexing"
  /** A removal: the dataset's rows deleted, and the property records in its coverage queued. */
  | "deleting"
  /** Parcels imported or removed: the buildings under new, moved or removed lot lines given their parcels again. */
  | "reassigning"
  /** An import: the ordered properties under what it changed brought up to date. */
  | "properties"
  /** The transaction committed, and on SQLite its log written back into the database. */
  | "committing";
