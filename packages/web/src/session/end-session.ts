let ending = false;

/**
 * Leaves the page for `/login` because its session ended (the JWT expired, or the API answered 401). `replace`
 * keeps the dead page out of the history, so Back does not return to it. Runs once however many callers notice.
 */
export function endSession(orgId: string | undefined, reason: "expired" | "missing" = "expired"): void {
  if (ending) return;
  ending = true;
  const query = new URLSearchParams({ reason });
  if (orgId !== undefined && reason === "expired") query.set("org", orgId);
  window.location.replace(`/login?${query}`);
}
