/**
 * A failure the caller can act on, with a stable machine `code`. The domain throws these and knows nothing of
 * HTTP; each edge (the API's error handler, the CLI) turns them into its own answer.
 */
export class DomainError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The thing named does not exist, or belongs to someone else. */
export class NotFoundError extends DomainError {}

/** The input breaks a rule; `code` says which. */
export class InvalidInputError extends DomainError {}
