// Webhook verification for receivers, the receiver kit of the service (Node.js: it uses node:crypto). The
// browser entry does not include it: webhook secrets belong on a server.
export * from "./generated/receiver-kit.js";
