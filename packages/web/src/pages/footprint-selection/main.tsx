import "../../styles/pages.css";
import { render } from "preact";
import { startPageSession } from "../../session/start-page-session";
import { readFootprintParams } from "./footprint-params";
import { FootprintSelectionPage } from "./footprint-selection-page";

const context = startPageSession();
const root = document.getElementById("app");
if (context && root) {
  render(<FootprintSelectionPage context={context} params={readFootprintParams(window.location.search)} />, root);
}
