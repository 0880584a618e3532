import { redirect } from "@remix-run/node";

/** Old and short links (/privacy) point to the one address of the document. */
export const loader = () => redirect("/privacy-policy", 301);
