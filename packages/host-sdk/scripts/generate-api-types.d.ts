/** Types of generate-api-types.js, for the test that keeps the committed file current. */
export declare const API_TYPES_FILE: string;
export declare function renderApiTypes(document: Record<string, unknown>): Promise<string>;
export declare function fetchBuiltServerDocument(): Promise<Record<string, unknown>>;
