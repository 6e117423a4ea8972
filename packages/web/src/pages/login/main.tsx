import "../../styles/pages.css";
import type { LoginContext } from "@lotline/contract";
import { render } from "preact";
import { setHostOrigins } from "../../messages/host-origins";
import { postToHost } from "../../messages/post-to-host";
import { readJsonScript } from "../../session/read-json-script";
import { LoginPage } from "./login-page";

/** The id of the element holding the LoginContext JSON the server injects into `/login`. */
const LOGIN_ELEMENT_ID = "lotline-login";

const context = readJsonScript<LoginContext>(LOGIN_ELEMENT_ID);
const reason = context?.reason ?? reasonFromQuery();
const root = document.getElementById("app");
if (root) render(<LoginPage reason={reason} />, root);

// The host learns that the page it framed can go no further, when the page knows whose host it is.
const origins = context?.host_origins ?? [];
if (origins.length > 0) {
  setHostOrigins(origins);
  postToHost({ type: "service-error", message: "The session has ended." });
  // The same news in a form a host can act on: open the page again with a fresh token.
  postToHost({ type: "service-session-ended", reason });
}

function reasonFromQuery(): LoginContext["reason"] {
  const reason = new URLSearchParams(window.location.search).get("reason");
  return reason === "expired" || reason === "missing" ? reason : "invalid";
}
