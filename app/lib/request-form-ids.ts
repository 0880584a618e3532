/* The ids of the order page's two request forms, so each gets its own reply (ADR 049). No zod here: the page imports it. */

export const REPLACEMENT_FORM = "request-replacement";
export const OTHER_REQUEST_FORM = "other-request";
