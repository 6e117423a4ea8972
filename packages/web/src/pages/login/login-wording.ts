import type { LoginContext } from "@lotline/contract";

/** What the login page says for each reason the session ended. */
export const LOGIN_WORDING: Readonly<Record<LoginContext["reason"], { title: string; explanation: string }>> = {
  expired: {
    title: "Your session has ended",
    explanation: "The session this page was opened with has expired.",
  },
  missing: {
    title: "This page needs a session",
    explanation: "The page was opened without the session your system provides.",
  },
  invalid: {
    title: "The session could not be verified",
    explanation: "The session this page was opened with is not valid.",
  },
};
