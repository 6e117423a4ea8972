export { fetchIframeToken, type HostToken, IframeSigninError } from "./fetch-iframe-token.js";
export { type CoreSystemOptions, type RunningCoreSystem, startCoreSystem } from "./start-core-system.js";
export {
  type VerifiedWebhook,
  verifyWebhook,
  WEBHOOK_TOLERANCE_SECONDS,
  type WebhookHeaders,
  WebhookVerificationError,
} from "./verify-webhook.js";
export { type ReceivedWebhook, WebhookInbox } from "./webhook-inbox.js";
