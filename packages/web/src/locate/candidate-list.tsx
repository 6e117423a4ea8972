import type { AddressCandidate } from "@lotline/contract";

/** The addresses a search found, one button each; choosing one places the property there. */
export function CandidateList({
  candidates,
  onPick,
}: {
  candidates: readonly AddressCandidate[];
  onPick: (candidate: AddressCandidate) => void;
}) {
  return (
    <ul class="candidates">
      {candidates.map((candidate) => (
        <li key={candidate.address_id}>
          <button type="button" class="button button--secondary candidates__button" onClick={() => onPick(candidate)}>
            {candidate.address}
          </button>
        </li>
      ))}
    </ul>
  );
}
