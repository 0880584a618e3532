import { redirect } from "@remix-run/node";

/** Old and short links (/terms) point to the one address of the document. */
export const loader = () => redirect("/terms-of-service", 301);
