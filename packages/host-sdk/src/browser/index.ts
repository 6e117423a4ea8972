/**
 * `@lotline/host-sdk/browser`: embed Lotline pages in a host application and keep their session alive.
 *
 * Most hosts need only {@link mount}; the building blocks are exported for hosts that draw their own frame.
 */
export { browserClock, type Clock, type TimerHandle } from "./clock.js";
export { type Countdown, type CountdownOptions, createCountdown, DEFAULT_THRESHOLDS_MS } from "./countdown.js";
export type {
  MountEvent,
  MountEvents,
  RefreshFailedEvent,
  SessionExpiredEvent,
  SessionExpiringEvent,
  SessionRefreshedEvent,
} from "./events.js";
export { checkIframeToken, type FetchToken, type IframeToken } from "./fetch-token.js";
// The window messages' types, so host code can name them without the contract package (which is not published).
export type {
  FootprintCallbackCompletedMessage,
  FootprintSubmittedMessage,
  HostMessage,
  HostSessionTokenMessage,
  OrderCompleteMessage,
  OrderProcessingMessage,
  ServiceErrorMessage,
  ServiceMessage,
  ServiceMessageOf,
  ServiceMessageType,
  SessionEndedMessage,
  SessionEndedReason,
} from "./generated/messages.js";
export {
  listenForServiceMessages,
  type MessageTarget,
  type ServiceMessageOptions,
} from "./listen-for-service-messages.js";
export { listenForWake, type WakeSources } from "./listen-for-wake.js";
export { type MountHandle, type MountOptions, mount } from "./mount.js";
export { noticeText } from "./notice-text.js";
export { pageUrl } from "./page-url.js";
export type { PageName, PageParams, PageSelection } from "./pages.js";
export { DEFAULT_REFRESH_MARGIN_MS, defaultRefreshMargin, refreshDelay } from "./refresh-delay.js";
export { DEFAULT_RETRY, type RetryPolicy, retryDelay } from "./retry-delay.js";
export {
  createTokenSession,
  type TokenSession,
  type TokenSessionEvent,
  type TokenSessionOptions,
} from "./token-session.js";
