export { type CoreSystemOptions, type RunningCoreSystem, startCoreSystem } from "./start-core-system.js";
export { type ReceivedWebhook, WebhookInbox } from "./webhook-inbox.js";
