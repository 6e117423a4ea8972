import { DomainError } from "../../errors.js";

/**
 * An import that was refused as a whole and changed nothing: its options name what the file lacks, or its result
 * would have been implausible (every record rejected, too many rejected, a dataset left empty). The message is one
 * line that says why and what to do.
 */
export class ImportRefusedError extends DomainError {
  constructor(reason: string) {
    super("import_refused", `import refused, nothing changed: ${reason}`);
  }
}
