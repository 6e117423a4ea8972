export * from "./addresses.js";
export * from "./auth.js";
export * from "./me.js";
export * from "./orders.js";
export * from "./problem.js";
export * from "./webhooks.js";
