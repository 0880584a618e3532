import { redirect } from "@remix-run/node";

/*
 * Support tickets need an account, so /support leads to the FAQ's contact section, which explains
 * that and links to /tickets and /login. Temporary (302): a support page of its own may come.
 */
export const loader = () => redirect("/faqs#contact", 302);
