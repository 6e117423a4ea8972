let registered: readonly string[] = [];

/** Records the organization's registered host origins (from the page's session), the only ones posted to. */
export function setHostOrigins(origins: readonly string[]): void {
  registered = [...origins];
}

/** The organization's registered host origins. */
export function hostOrigins(): readonly string[] {
  return registered;
}
