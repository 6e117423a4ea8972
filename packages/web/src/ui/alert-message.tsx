/**
 * An assertive live region for what went wrong: announced at once. Always rendered (empty when all is well) so that
 * the announcement is not lost when the message appears.
 */
export function AlertMessage({ message, id }: { message?: string | false | undefined; id?: string }) {
  return (
    <div class={message ? "alert alert--shown" : "alert"} role="alert" id={id}>
      {message || null}
    </div>
  );
}
