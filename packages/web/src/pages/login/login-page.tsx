import type { LoginContext } from "@lotline/contract";
import { LOGIN_WORDING } from "./login-wording";

/** Says the session ended, why, and that the way on is back through the user's own system. Holds no data. */
export function LoginPage({ reason }: { reason: LoginContext["reason"] }) {
  const wording = LOGIN_WORDING[reason] ?? LOGIN_WORDING.invalid;
  return (
    <main class="page page--narrow">
      <h1 class="page__title">{wording.title}</h1>
      <p>{wording.explanation}</p>
      <p>Return to your system and open this page from there again to continue.</p>
    </main>
  );
}
