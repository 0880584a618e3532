/**
 * Public ids are 22 base64url characters (128 random bits); anything else cannot name a row.
 * `-` is escaped: browsers compile an HTML pattern with the v flag, which refuses a bare one in a class.
 */
// eslint-disable-next-line no-useless-escape -- see above: the v flag needs it
export const PUBLIC_ID_PATTERN = /^[A-Za-z0-9_\-]{22}$/;
