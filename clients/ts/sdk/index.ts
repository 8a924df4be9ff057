/** Apocalypse Arena's TypeScript client: see docs/clients.md. */
export * from "./client.js";
export * from "./play.js";
export * from "./retry.js";
export * from "./stream.js";
