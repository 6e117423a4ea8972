/** A task ran over its time budget; its worker was terminated. */
export class TaskTimeoutError extends Error {
  constructor(readonly budgetMs: number) {
    super(`the task ran over its budget of ${budgetMs} ms`);
    this.name = "TaskTimeoutError";
  }
}
