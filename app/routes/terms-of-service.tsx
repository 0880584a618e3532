import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { LegalPage } from "~/components/legal/legal-page";
import { pageMeta } from "~/components/legal/page-meta";
import { readLegalDocument } from "~/lib/content.server";
import type { RouteHandle } from "~/root";

export const handle: RouteHandle = { hideChrome: true };

export async function loader({ context }: LoaderFunctionArgs) {
  return { document: await readLegalDocument(context, "terms-of-service") };
}

export default function TermsOfService() {
  const { document } = useLoaderData<typeof loader>();
  return <LegalPage title={document.title} paragraphs={document.paragraphs} current="/terms-of-service" />;
}

export const meta: MetaFunction = () =>
  pageMeta({
    title: "Terms of Service · Store",
    description:
      "The terms for buying digital subscriptions from the store: orders, delivery, warranty, refunds and your account.",
  });
