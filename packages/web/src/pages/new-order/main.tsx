import "../../styles/pages.css";
import { render } from "preact";
import { startPageSession } from "../../session/start-page-session";
import { NewOrderPage } from "./new-order-page";
import { readOrderParams } from "./order-params";

const context = startPageSession();
const root = document.getElementById("app");
if (context && root) {
  render(<NewOrderPage context={context} params={readOrderParams(window.location.search)} />, root);
}
