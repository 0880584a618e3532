/** The owner the e2e server makes with `npm run admin:create` before it starts (tests/support/e2e-server.ts). */
export const E2E_OWNER = { email: "owner.e2e@example.com", password: "e2e owner password 2026" };

/** OPERATOR_EMAIL of the e2e server: where the operator's notifications are mailed. */
export const E2E_OPERATOR_EMAIL = "operator@store.localhost";
