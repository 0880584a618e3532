/* The checkout form's id: the panel finds the action's reply by it (ADR 049). No zod here: the panel imports it. */

export const CHECKOUT_FORM = "checkout";
