/**
 * The client's version, apart so that the entry point and the commander
 * program share it without loading each other.
 *
 * @module
 */

/** Version of the client. */
export const CLIENT_VERSION = "0.1.0";
