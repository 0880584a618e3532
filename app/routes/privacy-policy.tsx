import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { LegalPage } from "~/components/legal/legal-page";
import { pageMeta } from "~/components/legal/page-meta";
import { readLegalDocument } from "~/lib/content.server";
import type { RouteHandle } from "~/root";

export const handle: RouteHandle = { hideChrome: true };

export async function loader({ context }: LoaderFunctionArgs) {
  return { document: await readLegalDocument(context, "privacy-policy") };
}

export default function PrivacyPolicy() {
  const { document } = useLoaderData<typeof loader>();
  return <LegalPage title={document.title} paragraphs={document.paragraphs} current="/privacy-policy" />;
}

export const meta: MetaFunction = () =>
  pageMeta({
    title: "Privacy Policy · Store",
    description: "What personal data the store keeps, why, for how long, and what you can ask us to do with it.",
  });
