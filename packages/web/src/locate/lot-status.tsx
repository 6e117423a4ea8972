import type { LotState } from "./use-lot";

/** What the page says while the parcel at the chosen location loads, or why it could not. */
export function LotStatus({ state }: { state: LotState }) {
  if (state.status === "loading") return <p class="muted">Loading the parcel…</p>;
  if (state.status === "error") {
    return (
      <p class="error-text" role="alert">
        The parcel could not be loaded: {state.message}
      </p>
    );
  }
  return null;
}
