import { type FetchToken, type MountHandle, mount } from "@lotline/host-sdk/browser";

const lotlineUrl = "https://lotline.example"; // your Lotline address

/** Calls your backend's token endpoint; your application's own session cookie goes along. */
const fetchToken: FetchToken = async () => {
  const response = await fetch("/lotline/token", { method: "POST" });
  if (!response.ok) throw new Error(`token request failed: ${response.status}`);
  return response.json(); // { token, expiresIn }
};

/** Shows the new-order page for a policy; when the order is complete, the property profile takes its place. */
export function showNewOrder(
  container: HTMLElement,
  policy: { address: string; externalId: string },
  notify: (text: string) => void,
): MountHandle {
  const page = mount({
    container,
    page: "new-order",
    params: { address: policy.address, external_id: policy.externalId },
    lotlineUrl,
    fetchToken,
  });
  page.on("session-expiring", ({ msLeft }) => notify(`Lotline session ends in ${Math.ceil(msLeft / 60_000)} min`));
  page.on("service-error", ({ message }) => notify(`Lotline: ${message}`));
  page.on("service-order-complete", ({ property_id, status }) => {
    // A failed order also completes; the page has said why (service-error) and stays open for another try.
    if (status === "failed") return;
    page.destroy();
    showProperty(container, property_id);
  });
  return page;
}

/** Shows an existing property record. Frames mounted with the same fetchToken share one session. */
export function showProperty(container: HTMLElement, propertyId: number): MountHandle {
  return mount({ container, page: "property-profile", params: { property_id: propertyId }, lotlineUrl, fetchToken });
}
