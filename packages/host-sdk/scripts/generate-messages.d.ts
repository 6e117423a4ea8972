/** Types of generate-messages.js, for the test that keeps the generated copy current. */
export declare const CONTRACT_MESSAGES_FILE: string;
export declare const MESSAGES_FILE: string;
export declare function renderMessages(contractSource: string): string;
