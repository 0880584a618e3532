/** The CREDENTIALS_KEY of stores the tests start in production mode, where it is required (ADR 056): 32 bytes, base64. */
export const TEST_CREDENTIALS_KEY = Buffer.from("store-tests-credentials-key-32b!").toString("base64");
