import "../../styles/pages.css";
import { render } from "preact";
import { postToHost } from "../../messages/post-to-host";
import { startPageSession } from "../../session/start-page-session";
import { propertyIdFromPath } from "./property-id";
import { PropertyProfilePage } from "./property-profile-page";

const context = startPageSession();
const root = document.getElementById("app");
const propertyId = propertyIdFromPath(window.location.pathname);
if (context && root) {
  if (propertyId === undefined) {
    const message = "This page's address does not name a property.";
    render(
      <main class="page">
        <h1 class="page__title">Property profile</h1>
        <p class="error-text" role="alert">
          {message}
        </p>
      </main>,
      root,
    );
    postToHost({ type: "service-error", message });
  } else {
    render(<PropertyProfilePage context={context} propertyId={propertyId} />, root);
  }
}
