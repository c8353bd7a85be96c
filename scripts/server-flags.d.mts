/** How Node runs the built server; see server-flags.mjs. */
export declare const SERVER_NODE_FLAGS: string[];
