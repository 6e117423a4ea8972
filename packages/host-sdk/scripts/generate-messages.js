/**
 * `npm run generate:messages -w @lotline/host-sdk`: copies the window-message definitions of the contract
 * (packages/contract/src/messages.ts, plain TypeScript without dependencies) into src/browser/generated/messages.ts.
 *
 * The SDK compiles that copy as one of its own modules, so its JavaScript and its .d.ts files carry the message
 * types and checks themselves and the published package installs without `@lotline/contract`, which is not on any
 * registry. A test (messages.test.ts) fails when the copy differs from the contract's file.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The contract's definitions: the one place the messages are edited. */
export const CONTRACT_MESSAGES_FILE = fileURLToPath(new URL("../../contract/src/messages.ts", import.meta.url));

/** The SDK's generated copy. */
export const MESSAGES_FILE = fileURLToPath(new URL("../src/browser/generated/messages.ts", import.meta.url));

const HEADER = `/**
 * GENERATED FILE: do not edit. A copy of @lotline/contract's window messages (packages/contract/src/messages.ts),
 * compiled into the SDK so that the published package needs no @lotline/contract.
 *
 * Regenerate after changing the contract's messages:
 *
 *   npm run generate:messages -w @lotline/host-sdk
 *
 * messages.test.ts fails while this file differs from the contract's.
 */

`;

/**
 * The generated module for the contract's `messages.ts` source: the header, then the source unchanged.
 * @param {string} contractSource
 * @returns {string}
 */
export function renderMessages(contractSource) {
  return HEADER + contractSource;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(MESSAGES_FILE, renderMessages(readFileSync(CONTRACT_MESSAGES_FILE, "utf8")));
  process.stdout.write(`wrote ${MESSAGES_FILE}\n`);
}
